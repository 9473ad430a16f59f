/**
 * The Packages view's rows: each package (name, version, id, vetted or not) → its modules → their
 * templates (fields, choices with their signatures, implemented interfaces) and interfaces (view,
 * choices). The Daml standard library packages are grouped apart, out of the way.
 */
import type { LedgerRow } from '../rows';
import { code, md, plural, shortId } from '../text';
import type { Choice, DamlPackage, Module } from './model';
import type { PackageIndex } from './packageIndex';
import { printType } from './types';

export interface PackageRowsOptions {
  /** Package ids vetted by this participant (on any synchronizer); absent when unknown. */
  vetted?: ReadonlySet<string>;
}

/** Packages that come with every Daml application: not what a user looks for first. */
function isStandardLibrary(p: DamlPackage): boolean {
  return /^(daml-(prim|stdlib|script)|ghc-)/.test(p.name);
}

export function packageRows(index: PackageIndex, options: PackageRowsOptions = {}): LedgerRow[] {
  const all = index.packages().sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
  const own = all.filter((p) => !isStandardLibrary(p)).map((p) => packageRow(p, index, options));
  const library = all.filter(isStandardLibrary);
  if (library.length === 0) return own;
  return [
    ...own,
    {
      key: 'stdlib',
      kind: 'group',
      label: 'Daml standard library',
      description: plural(library.length, 'package'),
      icon: 'library',
      children: () => library.map((p) => packageRow(p, index, options)),
    },
  ];
}

function packageRow(p: DamlPackage, index: PackageIndex, options: PackageRowsOptions): LedgerRow {
  const vetted = options.vetted ? (options.vetted.has(p.id) ? 'vetted' : 'not vetted') : undefined;
  const templates = p.modules.reduce((n, m) => n + m.templates.length, 0);
  const modules = p.modules.filter((m) => m.templates.length > 0 || m.interfaces.length > 0);
  return {
    key: `pkg-${p.id}`,
    kind: 'package',
    label: `${p.name} ${p.version}`,
    description: [shortId(p.id, 8, 4), vetted, templates ? plural(templates, 'template') : undefined].filter(Boolean).join(' · '),
    tooltip: `**${md(p.name)} ${md(p.version)}**  \nPackage ID ${code(p.id)}  \nDaml-LF ${md(p.lfVersion)}${vetted ? `  \n${vetted} on this participant` : ''}`,
    icon: 'package',
    packageId: p.id,
    copyValue: p.id,
    children: () => modules.map((m) => moduleRow(p, m, index)),
  };
}

function moduleRow(p: DamlPackage, m: Module, index: PackageIndex): LedgerRow {
  return {
    key: `mod-${m.name}`,
    kind: 'module',
    label: m.name,
    description: [m.templates.length && plural(m.templates.length, 'template'), m.interfaces.length && plural(m.interfaces.length, 'interface')].filter(Boolean).join(' · '),
    icon: 'symbol-namespace',
    expanded: true,
    children: () => [
      ...m.templates.map((t): LedgerRow => {
        const templateId = `#${p.name}:${m.name}:${t.name}`;
        const record = index.dataType({ packageId: p.id, moduleName: m.name, name: t.name });
        const fields = record?.kind === 'record' ? record.fields : [];
        const choices = index.choices({ packageId: p.id, moduleName: m.name, name: t.name }) ?? [];
        return {
          key: `tpl-${t.name}`,
          kind: 'template',
          label: t.name,
          description: `${plural(fields.length, 'field')} · ${plural(choices.length, 'choice')}`,
          tooltip: [
            '```daml',
            `template ${t.name}`,
            '  with',
            ...fields.map((f) => `    ${f.name} : ${printType(f.type)}`),
            ...(t.keyType ? [`  key : ${printType(t.keyType)}`] : []),
            '```',
            `${code(templateId)}`,
          ].join('\n'),
          icon: 'symbol-class',
          templateId,
          copyValue: templateId,
          children: () => [
            ...fields.map((f): LedgerRow => ({ key: `field-${f.name}`, kind: 'detail', label: f.name, description: printType(f.type), icon: 'symbol-field', copyValue: f.name })),
            ...choices.map(({ choice, declaredIn, declaredBy }) => choiceRow(choice, declaredIn === 'interface' ? `#${index.package(declaredBy.packageId)?.name ?? declaredBy.packageId}:${declaredBy.moduleName}:${declaredBy.name}` : templateId, declaredIn === 'interface' ? `from ${declaredBy.name}` : undefined)),
          ],
        };
      }),
      ...m.interfaces.map((i): LedgerRow => {
        const interfaceId = `#${p.name}:${m.name}:${i.name}`;
        return {
          key: `ifc-${i.name}`,
          kind: 'interface',
          label: i.name,
          description: `interface · view ${printType(i.viewType)} · ${plural(i.choices.length, 'choice')}`,
          icon: 'symbol-interface',
          templateId: interfaceId,
          copyValue: interfaceId,
          children: () => i.choices.map((c) => choiceRow(c, interfaceId)),
        };
      }),
    ],
  };
}

function choiceRow(c: Choice, templateId: string, origin?: string): LedgerRow {
  const signature = `${printType(c.argType)} → ${printType(c.returnType)}`;
  return {
    key: `choice-${c.name}-${templateId}`,
    kind: 'choice',
    label: c.name,
    description: [signature, c.consuming ? undefined : 'nonconsuming', origin].filter(Boolean).join(' · '),
    tooltip: ['```daml', `${c.consuming ? '' : 'nonconsuming '}choice ${c.name} : ${printType(c.argType)} -> ${printType(c.returnType)}`, '```', `on ${code(templateId)}`].join('\n'),
    icon: 'symbol-method',
    templateId,
    choice: c.name,
    copyValue: c.name,
  };
}
