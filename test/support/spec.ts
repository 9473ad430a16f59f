/**
 * The official Canton JSON Ledger API specs (OpenAPI 3.0.3 YAML) as a test oracle.
 *
 * The specs are not part of this repository: they live in `../shared/canton-api/` beside it. Tests that
 * need them call {@link requireSpec} (or check {@link specAvailable}) so that a missing folder skips them
 * loudly instead of letting them pass silently.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

export const REPO_ROOT = resolve(__dirname, '../..');
/** Beside the repository; the in-host suites (bundled elsewhere) are told where by the environment. */
export const SPEC_DIR = process.env.CANTON_SPEC_DIR ?? resolve(REPO_ROOT, '../shared/canton-api');

export type SpecVersion = '3.5' | '3.3' | '3.4.11' | '3.4.12' | 'main-3.6';
export const SPEC_VERSIONS: readonly SpecVersion[] = ['3.3', '3.4.11', '3.4.12', '3.5', 'main-3.6'];

const SPEC_FILES: Record<SpecVersion, string> = {
  '3.5': 'openapi.yaml',
  '3.3': 'versions/3.3/openapi.yaml',
  '3.4.11': 'versions/3.4.11/openapi.yaml',
  '3.4.12': 'versions/3.4.12/openapi.yaml',
  'main-3.6': 'versions/main-3.6-snapshot/openapi.yaml',
};

/** A JSON Schema object as found under `components.schemas` (OpenAPI 3.0 dialect). */
export type SpecSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { version: string; [key: string]: unknown };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, SpecSchema>; [key: string]: unknown };
  [key: string]: unknown;
}

export function specPath(version: SpecVersion): string {
  return join(SPEC_DIR, SPEC_FILES[version]);
}

/** The websocket spec (AsyncAPI 2.6) beside each OpenAPI file. */
export function asyncSpecPath(version: SpecVersion): string {
  return join(SPEC_DIR, SPEC_FILES[version].replace(/openapi\.yaml$/, 'asyncapi.yaml'));
}

export interface AsyncApiDocument {
  asyncapi: string;
  channels: Record<string, { publish?: { message?: { $ref?: string } }; subscribe?: { message?: { $ref?: string } }; bindings?: { ws?: { method?: string } } }>;
  components: { schemas: Record<string, SpecSchema>; messages: Record<string, { payload?: SpecSchema }> };
}

/** True when the primary (3.5) spec is present. */
export function specAvailable(version: SpecVersion = '3.5'): boolean {
  return existsSync(specPath(version));
}

let warned = false;

/**
 * For `before`/`it` callbacks: skips the current test (or suite) with a loud warning when the spec is
 * missing. Never let a spec-based test pass without the spec.
 */
export function requireSpec(context: Mocha.Context, version: SpecVersion = '3.5'): void {
  if (specAvailable(version)) return;
  if (!warned) {
    warned = true;
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!! Canton OpenAPI spec NOT FOUND at ${specPath(version)}\n` +
        `!! Spec-based tests are SKIPPED. Put the canton-api folder at ${SPEC_DIR}\n${line}\n`,
    );
  }
  context.skip();
}

const documents = new Map<SpecVersion, OpenApiDocument>();

export function loadSpec(version: SpecVersion): OpenApiDocument {
  let document = documents.get(version);
  if (!document) {
    const path = specPath(version);
    if (!existsSync(path)) throw new Error(`Canton OpenAPI spec ${version} not found at ${path}`);
    document = parseYaml(readFileSync(path, 'utf8')) as OpenApiDocument;
    documents.set(version, document);
  }
  return document;
}

const asyncDocuments = new Map<SpecVersion, AsyncApiDocument>();

export function loadAsyncSpec(version: SpecVersion): AsyncApiDocument {
  let document = asyncDocuments.get(version);
  if (!document) {
    const path = asyncSpecPath(version);
    if (!existsSync(path)) throw new Error(`Canton AsyncAPI spec ${version} not found at ${path}`);
    document = parseYaml(readFileSync(path, 'utf8')) as AsyncApiDocument;
    asyncDocuments.set(version, document);
  }
  return document;
}

/** `#/components/schemas/<name>` of a spec version, or undefined if that version has no such schema. */
export function specSchema(version: SpecVersion, name: string): SpecSchema | undefined {
  return loadSpec(version).components.schemas[name];
}

/** Follows a local `$ref` (`#/components/schemas/X`) of a spec; other schemas are returned as they are. */
export function derefSpec(version: SpecVersion, schema: SpecSchema): SpecSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    const target = name === undefined ? undefined : specSchema(version, name);
    if (!target || hops > 50) throw new Error(`Cannot resolve ${current.$ref} in spec ${version}`);
    current = target;
  }
  return current;
}

export interface SpecValidationResult {
  ok: boolean;
  errors: ErrorObject[];
}

export interface SpecValidatorOptions {
  /**
   * Deep-remove `null` values before validating (default true). OpenAPI 3.0 has no `null` type and the
   * Canton spec never says `nullable`, yet the real server writes `null` for absent optional fields
   * (`"contractKey": null`, `"traceContext": null`, …). Removing them validates what the server means.
   * Pass false to check request bodies exactly as they would be sent.
   */
  stripNulls?: boolean;
}

const ajvs = new Map<string, Ajv>();
const validators = new Map<string, ValidateFunction>();

/**
 * A validator for `#/components/schemas/<schemaName>` of a spec version. Compiled on first use and cached.
 * The OpenAPI dialect is close enough to JSON Schema for ajv in non-strict mode (unknown keywords such as
 * `example` are ignored); the int32/int64 formats are checked as ranges.
 */
export function specValidator(
  version: SpecVersion,
  schemaName: string,
  options: SpecValidatorOptions = {},
): (value: unknown) => SpecValidationResult {
  if (!specSchema(version, schemaName)) throw new Error(`Spec ${version} has no schema ${schemaName}`);
  return validatorOf(version, 'openapi', schemaName, options);
}

/**
 * A validator for `#/components/schemas/<schemaName>` of a version's websocket (AsyncAPI) spec, for
 * the frames of a channel; the same rules as {@link specValidator}.
 */
export function asyncSpecValidator(version: SpecVersion, schemaName: string, options: SpecValidatorOptions = {}): (value: unknown) => SpecValidationResult {
  if (!loadAsyncSpec(version).components.schemas[schemaName]) throw new Error(`AsyncAPI spec ${version} has no schema ${schemaName}`);
  return validatorOf(version, 'asyncapi', schemaName, options);
}

function validatorOf(version: SpecVersion, kind: 'openapi' | 'asyncapi', schemaName: string, options: SpecValidatorOptions): (value: unknown) => SpecValidationResult {
  const key = `${kind}-${version}#${schemaName}`;
  let validate = validators.get(key);
  if (!validate) {
    const compiled = ajvFor(version, kind).getSchema(`${specId(version, kind)}#/components/schemas/${schemaName}`);
    if (!compiled) throw new Error(`Cannot compile ${schemaName} of spec ${version}`);
    validate = compiled;
    validators.set(key, validate);
  }
  const stripNullValues = options.stripNulls ?? true;
  const check = validate;
  return (value) => {
    const ok = check(stripNullValues ? stripNulls(value) : value) as boolean;
    return { ok, errors: ok ? [] : [...(check.errors ?? [])] };
  };
}

/** A deep copy of `value` without `null` object members and array items. */
export function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== null).map(stripNulls);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, member]) => member !== null)
        .map(([name, member]) => [name, stripNulls(member)]),
    );
  }
  return value;
}

function specId(version: SpecVersion, kind: 'openapi' | 'asyncapi' = 'openapi'): string {
  return `canton-${kind}-${version}`;
}

function ajvFor(version: SpecVersion, kind: 'openapi' | 'asyncapi'): Ajv {
  let ajv = ajvs.get(`${kind}-${version}`);
  if (!ajv) {
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
    ajv.addFormat('binary', { type: 'string', validate: () => true });
    // Only the components: `$ref`s in the spec are all `#/components/schemas/…`, resolved against this root.
    const components = kind === 'openapi' ? loadSpec(version).components : { schemas: loadAsyncSpec(version).components.schemas };
    ajv.addSchema({ components }, specId(version, kind));
    ajvs.set(`${kind}-${version}`, ajv);
  }
  return ajv;
}

// ---------------------------------------------------------------- derived facts: paths and required fields

/** The spec versions by the release line of `src/core/versions.ts` they describe. */
export const SPEC_OF_LINE = { '3.3': '3.3', '3.4.11': '3.4.11', '3.4.12': '3.4.12', '3.5': '3.5', '3.6': 'main-3.6' } as const satisfies Record<string, SpecVersion>;

/** `METHOD /path` of every operation in a spec. */
export function specEndpoints(version: SpecVersion): Set<string> {
  const out = new Set<string>();
  for (const [path, ops] of Object.entries(loadSpec(version).paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(ops)) out.add(`${method.toUpperCase()} ${path}`);
  }
  return out;
}

/** `GET /path` of every websocket channel in a version's AsyncAPI spec (the upgrade is a GET). */
export function specChannels(version: SpecVersion): Set<string> {
  const out = new Set<string>();
  for (const [path, channel] of Object.entries(loadAsyncSpec(version).channels)) out.add(`${(channel.bindings?.ws?.method ?? 'GET').toUpperCase()} ${path}`);
  return out;
}

/** The schema of a channel's messages: `publish` (what the client sends) or `subscribe` (what it receives). */
export function channelSchemaName(version: SpecVersion, path: string, direction: 'publish' | 'subscribe'): string | undefined {
  const document = loadAsyncSpec(version);
  const message = /^#\/components\/messages\/(.+)$/.exec(document.channels[path]?.[direction]?.message?.$ref ?? '')?.[1];
  const ref = message === undefined ? undefined : document.components.messages[message]?.payload?.$ref;
  return typeof ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1] : undefined;
}

/** The component name of an operation's JSON request body, if it has one. */
export function requestSchemaName(version: SpecVersion, method: string, path: string): string | undefined {
  const op = (loadSpec(version).paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: SpecSchema }> } }>>)[path]?.[method.toLowerCase()];
  const ref = op?.requestBody?.content?.['application/json']?.schema?.$ref;
  return typeof ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1] : undefined;
}

/**
 * The required fields of every object reachable from a request schema, keyed by where the object sits
 * in a body: `GetUpdatesRequest.updateFormat.includeTransactions`, with `[]` for array items, `*` for
 * map values and the case name for a oneOf case (`….identifierFilter.TemplateFilter.value`). Objects
 * that require nothing are left out.
 */
export function requiredFieldsByPath(version: SpecVersion, rootSchema: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (schema: SpecSchema | undefined, path: string, seen: readonly string[]): void => {
    if (!schema) return;
    const ref = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
    if (ref) {
      if (seen.includes(ref)) return; // Daml values and similar recursive shapes carry no required fields of their own
      return walk(specSchema(version, ref), path, [...seen, ref]);
    }
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    if (required.length > 0 && !schema.oneOf) out.set(path, [...(out.get(path) ?? []), ...required].sort());
    for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, SpecSchema>)) walk(member, `${path}.${name}`, seen);
    if (schema.items) walk(schema.items as SpecSchema, `${path}[]`, seen);
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties as SpecSchema, `${path}.*`, seen);
    // A oneOf case is an object with one property named after the case: the case's content is that property.
    for (const alternative of (schema.oneOf ?? []) as SpecSchema[]) {
      for (const [name, member] of Object.entries((alternative.properties ?? {}) as Record<string, SpecSchema>)) walk(member, `${path}.${name}`, seen);
    }
  };
  walk({ $ref: `#/components/schemas/${rootSchema}` }, rootSchema, []);
  return out;
}
