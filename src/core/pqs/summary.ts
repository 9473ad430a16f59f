/**
 * The PQS view's template list: `summary_active` counts a template's contracts and, apart, each
 * interface's views of the contracts of the templates that implement it (PQS stores a row per payload).
 * Shown as a list of templates, each with the interface views its contracts have under it, the view
 * counts never mistaken for templates of their own.
 */
import type { TemplateCount } from './store';

export interface TemplateGroup {
  name: string;
  count: number;
  /** The interfaces this template implements that the store holds views of (their counts are over every implementer). */
  interfaces: TemplateCount[];
}

export interface GroupedSummary {
  templates: TemplateGroup[];
  /** Interfaces with views in the store whose implementers the packages do not name (or that have none active). */
  interfaces: TemplateCount[];
}

/** What the participant's packages say of a template (PQS name): the interfaces it implements (PQS names). */
export type ImplementsOf = (templateFqn: string) => readonly string[] | undefined;

export function groupSummary(counts: readonly TemplateCount[], implementsOf: ImplementsOf = () => undefined): GroupedSummary {
  const interfaces = new Map(counts.filter((c) => c.payloadType === 'interface').map((c) => [c.name, c]));
  const attached = new Set<string>();
  const templates = counts
    .filter((c) => c.payloadType === 'template')
    .map((t) => {
      const views = (implementsOf(t.name) ?? []).flatMap((i) => (interfaces.has(i) ? [interfaces.get(i)!] : []));
      for (const v of views) attached.add(v.name);
      return { name: t.name, count: t.count, interfaces: views };
    });
  return { templates, interfaces: [...interfaces.values()].filter((i) => !attached.has(i.name)) };
}

/** What {@link implementsFromPackages} needs of a package index. */
export interface ImplementsPackages {
  templatesByPackageName(): readonly { packageName: string; name: { moduleName: string; name: string }; template: { implements: readonly { packageId: string; moduleName: string; name: string }[] } }[];
  package(id: string): { name: string } | undefined;
}

/** The interfaces each template implements, as PQS names them (`package-name:Module:Entity`), from the participant's packages. */
export function implementsFromPackages(packages: ImplementsPackages): ImplementsOf {
  const byTemplate = new Map<string, string[]>();
  for (const t of packages.templatesByPackageName()) {
    const names = t.template.implements.flatMap((i) => {
      const pkg = packages.package(i.packageId);
      return pkg ? [`${pkg.name}:${i.moduleName}:${i.name}`] : [];
    });
    byTemplate.set(`${t.packageName}:${t.name.moduleName}:${t.name.name}`, names);
  }
  return (fqn) => byTemplate.get(fqn);
}
