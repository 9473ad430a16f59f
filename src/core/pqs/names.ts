/**
 * Template names as PQS takes them (`package-name:Module:Entity`, `Module:Entity`, `Entity`) and as
 * the extension writes template ids (`#package-name:Module:Entity`, `<package id>:Module:Entity`):
 * the one place that maps between them.
 */
import { isPackageHash, parseIdentifier } from '../daml/identifiers';

/**
 * The PQS name of a template id the extension holds. A package-name id maps to PQS's fully qualified
 * name; a package-id id has no package name in it, so it maps to `Module:Entity` unless the package
 * name is known (`packageNameOf`).
 */
export function pqsNameOf(templateId: string, packageNameOf?: (packageId: string) => string | undefined): string {
  const id = parseIdentifier(templateId);
  if (!id) return templateId.startsWith('#') ? templateId.slice(1) : templateId;
  const qualified = `${id.moduleName}:${id.entityName}`;
  if (id.form === 'package-name') return `${id.packageName}:${qualified}`;
  // `name:Module:Entity` without the `#` is already PQS's fully qualified name; only a hash is a package id.
  if (!isPackageHash(id.packageId)) return templateId;
  const name = packageNameOf?.(id.packageId);
  return name ? `${name}:${qualified}` : qualified;
}

/** The extension's package-name template id of a PQS fully qualified name (`pkg:Mod:Ent` → `#pkg:Mod:Ent`). */
export function templateIdOfPqsName(fqn: string): string | undefined {
  const id = parseIdentifier(`#${fqn}`);
  return id ? `#${fqn}` : undefined;
}
