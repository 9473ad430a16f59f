/**
 * Valid instances of a request schema, generated from an official spec: one with only the required
 * fields, one with every optional field too, and one for every oneOf case and every enum value
 * (each with all optional fields), so that a validator can be held to "spec-valid means valid".
 */
import { specSchema, type SpecSchema, type SpecVersion } from './spec';

export interface InstanceHooks {
  /** A realistic string for a field (a party, a template id, a timestamp, …); `path` is dotted, arrays as `[]`. */
  string(name: string, path: string): string;
  /** A free-form value (a Daml value such as `createArguments`). */
  any(name: string, path: string): unknown;
  /** A number for an integer field. */
  integer?(name: string, path: string): number;
  /** A key for a map entry (`filtersByParty`). */
  mapKey?(path: string): string;
  /** A reason to leave out a oneOf case or enum value the participant refuses although the spec lists it. */
  skip?(path: string, value: string): string | undefined;
  /** Optional fields the participant needs anyway: written in the minimal instance too. */
  needed?(path: string, name: string): boolean;
  /** Optional fields never to write (response artefacts). */
  omit?(path: string, name: string): boolean;
  /** Fields of an object at most one of which may be set: each is tried, never two together. */
  exclusive?(path: string): string[][];
}

export interface Instance {
  /** What varies: `minimal`, `full`, or `full with <path>=<case or value>`. */
  label: string;
  value: unknown;
}

interface Build {
  full: boolean;
  choices: ReadonlyMap<string, string>;
  /** Every variation point met while building, with its options. */
  points: Map<string, string[]>;
}

export function specInstances(version: SpecVersion, rootSchema: string, hooks: InstanceHooks): Instance[] {
  const build = (full: boolean, choices: ReadonlyMap<string, string>) => {
    const b: Build = { full, choices, points: new Map() };
    const value = generate(version, { $ref: `#/components/schemas/${rootSchema}` }, rootSchema, '', b, hooks, []);
    return { value, points: b.points };
  };
  const minimal = build(false, new Map());
  const full = build(true, new Map());
  const out: Instance[] = [
    { label: 'minimal', value: minimal.value },
    { label: 'full', value: full.value },
  ];
  // Each option of each variation point, the others left at their first option; options reveal new points.
  const pending = [...full.points];
  const done = new Set<string>();
  while (pending.length > 0) {
    const [path, options] = pending.shift()!;
    for (const option of options.slice(1)) {
      const key = `${path}=${option}`;
      if (done.has(key)) continue;
      done.add(key);
      const built = build(true, new Map([[path, option]]));
      out.push({ label: `full with ${key}`, value: built.value });
      for (const point of built.points) if (!full.points.has(point[0])) pending.push(point);
    }
  }
  return out;
}

function refName(schema: SpecSchema): string | undefined {
  return typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
}

function generate(version: SpecVersion, schema: SpecSchema, name: string, path: string, b: Build, hooks: InstanceHooks, seen: readonly string[]): unknown {
  const ref = refName(schema);
  if (ref) {
    const target = specSchema(version, ref);
    if (!target) throw new Error(`${version} has no schema ${ref}`);
    if (seen.includes(ref)) return {};
    return generate(version, target, name, path, b, hooks, [...seen, ref]);
  }
  if (Array.isArray(schema.oneOf)) {
    const cases = (schema.oneOf as SpecSchema[]).map((alt) => Object.keys((alt.properties ?? {}) as object)[0]);
    const options = cases.filter((c) => !hooks.skip?.(path, c));
    b.points.set(path, options);
    const chosen = b.choices.get(path) ?? options[0];
    const alt = (schema.oneOf as SpecSchema[])[cases.indexOf(chosen)];
    const member = (alt.properties as Record<string, SpecSchema>)[chosen];
    return { [chosen]: generate(version, member, chosen, `${path}.${chosen}`, b, hooks, seen) };
  }
  if (Array.isArray(schema.enum)) {
    const options = (schema.enum as string[]).filter((v) => !hooks.skip?.(path, v));
    b.points.set(path, options);
    return b.choices.get(path) ?? options[0];
  }
  switch (schema.type) {
    case 'array':
      return [generate(version, schema.items as SpecSchema, name, `${path}[]`, b, hooks, seen)];
    case 'string':
      return hooks.string(name, path);
    case 'integer':
    case 'number':
      return hooks.integer?.(name, path) ?? 1;
    case 'boolean':
      return b.full;
  }
  const properties = (schema.properties ?? {}) as Record<string, SpecSchema>;
  if (schema.type === 'object' || Object.keys(properties).length > 0 || schema.additionalProperties) {
    const required = new Set((schema.required ?? []) as string[]);
    const left = new Set<string>();
    for (const group of (hooks.exclusive?.(path) ?? []).filter((g) => g.every((field) => field in properties))) {
      const point = `${path}{${group.join('|')}}`;
      b.points.set(point, group);
      const chosen = b.choices.get(point) ?? group[0];
      for (const field of group) if (field !== chosen) left.add(field);
    }
    const out: Record<string, unknown> = {};
    for (const [field, member] of Object.entries(properties)) {
      const fieldPath = `${path}.${field}`;
      if (left.has(field)) continue;
      if (!required.has(field) && (hooks.omit?.(fieldPath, field) || !(b.full || hooks.needed?.(fieldPath, field)))) continue;
      out[field] = generate(version, member, field, fieldPath, b, hooks, seen);
    }
    if (typeof schema.additionalProperties === 'object') {
      const key = hooks.mapKey?.(path) ?? 'key';
      out[key] = generate(version, schema.additionalProperties as SpecSchema, key, `${path}.*`, b, hooks, seen);
    }
    return out;
  }
  return hooks.any(name, path);
}
