/**
 * A participant's OpenAPI document (`GET /docs/openapi`), read as the Canton JSON Ledger API's specs
 * write it: components under `#/components/schemas`, variants as `oneOf` of one-member objects, maps as
 * `additionalProperties`, lists as `items`, enums inline. `allOf` and `anyOf` are read too, in case a
 * release starts to use them.
 */

/** Where a Canton participant serves its own API description (its asyncapi beside it, at `/docs/asyncapi`). */
export const PARTICIPANT_DESCRIPTION_PATH = '/docs/openapi';

export type Schema = Readonly<Record<string, unknown>>;

export interface OpenApiOperation {
  parameters?: ReadonlyArray<{ name?: string; in?: string; required?: boolean; $ref?: string }>;
  requestBody?: { content?: Readonly<Record<string, { schema?: Schema }>> };
  responses?: Readonly<Record<string, { content?: Readonly<Record<string, { schema?: Schema }>> }>>;
}

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string };
  paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  components?: { schemas?: Readonly<Record<string, Schema>>; parameters?: Readonly<Record<string, unknown>> };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A path with its parameters blanked, so that `/v2/users/{user-id}` and `/v2/users/{userId}` compare equal. */
export function pathShape(path: string): string {
  return path.replace(/:[A-Za-z]+|\{[^}]+\}/g, '{}');
}

/** True for a parsed value that is an OpenAPI 3 document with paths. */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  const v = value as Partial<OpenApiDocument> | null;
  return !!v && typeof v === 'object' && typeof v.openapi === 'string' && !!v.paths && typeof v.paths === 'object';
}

export class OpenApiReader {
  constructor(readonly document: OpenApiDocument) {}

  /** `info.version` as the document says it (Canton writes its release, `3.5.10-SNAPSHOT`). */
  get version(): string | undefined {
    return typeof this.document.info?.version === 'string' ? this.document.info.version : undefined;
  }

  /** Every `METHOD /path` of the document. */
  endpoints(): { method: string; path: string }[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.keys(item ?? {})
        .filter((m) => HTTP_METHODS.includes(m))
        .map((m) => ({ method: m.toUpperCase(), path })),
    );
  }

  /** The operation at a path (matched by shape: parameter names may differ), and which methods the path has. */
  operation(method: string, path: string): { operation?: OpenApiOperation; methods: string[] } {
    const shape = pathShape(path);
    const template = Object.keys(this.document.paths).find((p) => p === path) ?? Object.keys(this.document.paths).find((p) => pathShape(p) === shape);
    if (template === undefined) return { methods: [] };
    const item = this.document.paths[template] ?? {};
    const methods = Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).map((m) => m.toUpperCase());
    return { operation: item[method.toLowerCase()], methods };
  }

  /** The component name of a `$ref` schema (`#/components/schemas/Name`). */
  refName(schema: Schema | undefined): string | undefined {
    const ref = schema?.$ref;
    return typeof ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1] : undefined;
  }

  /** Follows `$ref`s; undefined for a reference the document cannot resolve. */
  resolve(schema: Schema | undefined): Schema | undefined {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      const name = this.refName(current);
      current = hops > 64 || name === undefined ? undefined : this.document.components?.schemas?.[name];
    }
    return current;
  }

  /** A variant: one of several cases (`oneOf`/`anyOf`), each an object with one member named after the case. */
  isVariant(schema: Schema | undefined): boolean {
    const s = this.resolve(schema);
    return Array.isArray(s?.oneOf) || Array.isArray(s?.anyOf);
  }

  /** The members an object may have: its own, those of its `allOf` parts, and for a variant each case. */
  properties(schema: Schema | undefined): Map<string, Schema> {
    const out = new Map<string, Schema>();
    const visit = (s: Schema | undefined, depth: number) => {
      const r = this.resolve(s);
      if (!r || depth > 16) return;
      for (const [name, member] of Object.entries((r.properties ?? {}) as Record<string, Schema>)) if (!out.has(name)) out.set(name, member);
      for (const part of [...asList(r.allOf), ...asList(r.oneOf), ...asList(r.anyOf)]) visit(part, depth + 1);
    };
    visit(schema, 0);
    return out;
  }

  /** An object that says nothing of its members (`{}`, or `type: object` alone): it takes any. */
  isOpen(schema: Schema | undefined): boolean {
    const r = this.resolve(schema);
    if (!r) return true;
    return this.properties(r).size === 0 && r.additionalProperties === undefined && r.items === undefined && r.enum === undefined && (r.type === undefined || r.type === 'object');
  }

  /** The members an object requires (its own and its `allOf` parts'); a variant's cases are not members. */
  required(schema: Schema | undefined): string[] {
    const out: string[] = [];
    const visit = (s: Schema | undefined, depth: number) => {
      const r = this.resolve(s);
      if (!r || depth > 16) return;
      for (const name of asList<string>(r.required)) if (typeof name === 'string' && !out.includes(name)) out.push(name);
      for (const part of asList(r.allOf)) visit(part, depth + 1);
    };
    if (!this.isVariant(schema)) visit(schema, 0);
    return out;
  }

  /** The values an enum position takes (of the position itself, or of its list's items). */
  enumValues(schema: Schema | undefined): string[] | undefined {
    const r = this.resolve(schema);
    if (Array.isArray(r?.enum)) return r.enum.filter((v): v is string => typeof v === 'string');
    const items = this.resolve(r?.items as Schema | undefined);
    return Array.isArray(items?.enum) ? items.enum.filter((v): v is string => typeof v === 'string') : undefined;
  }

  /** A list's items. */
  items(schema: Schema | undefined): Schema | undefined {
    const r = this.resolve(schema);
    return typeof r?.items === 'object' && r.items !== null ? (r.items as Schema) : undefined;
  }

  /** A map's values (`additionalProperties`). */
  mapValues(schema: Schema | undefined): Schema | undefined {
    const r = this.resolve(schema);
    return typeof r?.additionalProperties === 'object' && r.additionalProperties !== null ? (r.additionalProperties as Schema) : undefined;
  }

  /** The names of an operation's query parameters (`$ref`s to shared parameters followed). */
  queryParameters(operation: OpenApiOperation): string[] {
    return (operation.parameters ?? []).flatMap((p) => {
      const name = typeof p.$ref === 'string' ? /^#\/components\/parameters\/(.+)$/.exec(p.$ref)?.[1] : undefined;
      const param = (name === undefined ? p : this.document.components?.parameters?.[name]) as { name?: string; in?: string } | undefined;
      return param?.in === 'query' && typeof param.name === 'string' ? [param.name] : [];
    });
  }
}

function asList<T = Schema>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}
