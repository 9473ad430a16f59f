/**
 * Template and interface identifiers as the JSON Ledger API writes them, in both forms:
 * `#package-name:Module.Sub:Entity` (package-name form, lets Canton pick the package version) and
 * `<package id>:Module.Sub:Entity` (package-id form, what responses carry).
 */

/** A parsed identifier; `form` says how the package is named. */
export type DamlIdentifier =
  | { form: 'package-name'; packageName: string; moduleName: string; entityName: string }
  | { form: 'package-id'; packageId: string; moduleName: string; entityName: string };

// Daml-LF names: a segment is `[A-Za-z_$][A-Za-z0-9_$]*`, module and entity names are dotted
// segments (an entity is dotted for a variant's record constructors, e.g. `Shape.Circle`).
const DOTTED_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
// Package names and package ids: the alphabet Canton's parser takes (a real id is 64 hex digits).
const PACKAGE_REF = /^[A-Za-z0-9._-]+$/;
const PACKAGE_HASH = /^[0-9a-fA-F]{64}$/;

/**
 * Parses `#name:Module:Entity` or `<package id>:Module:Entity`; undefined when `text` is neither
 * (wrong number of parts, empty parts, characters Daml names cannot have).
 */
export function parseIdentifier(text: string): DamlIdentifier | undefined {
  // The same few ids come again and again (each event of each update, each command of a script): each
  // is parsed once. Frozen, as callers share it. No real id is long: a long text is not kept.
  if (text.length > 512) return parseUncached(text);
  let id = parsedIdentifiers.get(text);
  if (id === undefined) {
    id = parseUncached(text) ?? null;
    if (parsedIdentifiers.size >= 4096) parsedIdentifiers.clear();
    parsedIdentifiers.set(text, id && Object.freeze(id));
  }
  return id ?? undefined;
}

const parsedIdentifiers = new Map<string, DamlIdentifier | null>();

function parseUncached(text: string): DamlIdentifier | undefined {
  const parts = text.split(':');
  if (parts.length !== 3) return undefined;
  const [packagePart, moduleName, entityName] = parts;
  if (!DOTTED_NAME.test(moduleName) || !DOTTED_NAME.test(entityName)) return undefined;
  if (packagePart.startsWith('#')) {
    const packageName = packagePart.slice(1);
    return PACKAGE_REF.test(packageName) ? { form: 'package-name', packageName, moduleName, entityName } : undefined;
  }
  return PACKAGE_REF.test(packagePart) ? { form: 'package-id', packageId: packagePart, moduleName, entityName } : undefined;
}

/** The identifier as the JSON Ledger API writes it. */
export function printIdentifier(id: DamlIdentifier): string {
  return `${packageRefOf(id)}:${qualifiedNameOf(id)}`;
}

/** `#name` for the package-name form, the package id otherwise. */
export function packageRefOf(id: DamlIdentifier): string {
  return id.form === 'package-name' ? `#${id.packageName}` : id.packageId;
}

/** `Module.Sub:Entity`: the identifier without its package. */
export function qualifiedNameOf(id: { moduleName: string; entityName: string }): string {
  return `${id.moduleName}:${id.entityName}`;
}

/** `Module:Entity` of `#pkg:Module:Entity` or `<package id>:Module:Entity` (the text itself if it is no identifier). */
export function entityName(templateId: string): string {
  const id = parseIdentifier(templateId);
  return id ? qualifiedNameOf(id) : templateId;
}

/** True for a package id that is a SHA-256 hash (64 hex digits), as every real package id is. */
export function isPackageHash(text: string): boolean {
  return PACKAGE_HASH.test(text);
}

/** The same entity named in the package-name form. */
export function withPackageName(id: DamlIdentifier, packageName: string): DamlIdentifier {
  return { form: 'package-name', packageName, moduleName: id.moduleName, entityName: id.entityName };
}

/** The same entity named in the package-id form. */
export function withPackageId(id: DamlIdentifier, packageId: string): DamlIdentifier {
  return { form: 'package-id', packageId, moduleName: id.moduleName, entityName: id.entityName };
}
