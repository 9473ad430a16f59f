/**
 * The part of a commands file the envelope schema leaves free: `createArguments`, `choiceArgument`
 * and `contractKey`, checked against the Daml types of the ledger's own packages, and the template
 * and choice names they hang on.
 */
import { packageRefOf, parseIdentifier, qualifiedNameOf, type DamlIdentifier } from '../daml/identifiers';
import { checkValue, type ValueProblem } from '../daml/jsonEncoding';
import { DamlTypes, type Choice, type DamlType, type QualifiedName } from '../daml/model';
import type { ChoiceEntry, PackageIndex } from '../daml/packageIndex';
import { commandSites, type CommandSite } from './customChecks';
import { rangeOf, type JsonDocument } from './jsonDocument';
import { closestName } from '../spelling';
import { TEMPLATE_ID_PLACEHOLDER } from './placeholders';
import type { ProblemDraft } from './problems';

/** The packages to check against, and where they come from (named in messages: "on Demo", "in model.dar"). */
export interface ArgumentContext {
  packages: PackageIndex;
  source: string;
  /** What could not be read (a participant's package, a .dar file): what it holds cannot be checked. */
  unreadable?: readonly UnreadablePackages[];
}

/**
 * Packages that could not be read, and why: one package of a participant (`packageId` known), or a
 * `.dar` file whose packages are not known at all.
 */
export interface UnreadablePackages {
  /** "package 1220ab…" or "model.dar", for messages. */
  name: string;
  packageId?: string;
  error: Error;
}

/** "package 1220ab… (HTTP 500 …)", each unreadable source with its error. */
export function unreadableText(u: UnreadablePackages): string {
  return `${u.name} (${u.error.message})`;
}

/**
 * The unreadable packages that may hold what a template id names: the one with its package id, or,
 * for a package name (or an id of a .dar that could not be read), every one whose ids are unknown.
 */
function unreadableFor(id: DamlIdentifier, context: ArgumentContext): readonly UnreadablePackages[] {
  const unreadable = context.unreadable ?? [];
  if (id.form === 'package-id') {
    const own = unreadable.filter((u) => u.packageId === id.packageId);
    return own.length > 0 ? own : unreadable.filter((u) => u.packageId === undefined);
  }
  return unreadable;
}

/** What a command's `templateId` names, once resolved. */
export interface ResolvedTarget {
  id: DamlIdentifier;
  name: QualifiedName;
  /** The template, or the interface an ExerciseCommand may name instead. */
  kind: 'template' | 'interface';
}

/**
 * `base`: the pointer of `value` in `doc` (a ledger script's step holds its JsCommands inside the
 * file); `skip`: pointers whose problems are not wanted (a script's `${…}`, known only when it runs).
 */
export function argumentProblems(value: unknown, doc: JsonDocument, context: ArgumentContext | undefined, base = '', skip?: ReadonlySet<string>): ProblemDraft[] {
  const sites = commandSites(value).map((site) => ({ ...site, pointer: base + site.pointer }));
  if (sites.length === 0) return [];
  if (!context) return [uncheckedNote(sites, doc)];
  const problems: ProblemDraft[] = [];
  for (const site of sites) problems.push(...commandProblems(site, doc, context, skip));
  return problems;
}

function uncheckedNote(sites: CommandSite[], doc: JsonDocument): ProblemDraft {
  const first = sites[0];
  const node = doc.nodeAt(`${first.pointer}/templateId`) ?? doc.nodeAt(first.pointer);
  return {
    path: first.pointer,
    severity: 'info',
    code: 'arguments-unchecked',
    message: 'The arguments are not checked against their Daml types: that needs the packages of a participant (connect to one) or a .dar file in the workspace.',
    ...(node ? doc.anchorOf(node) : { offset: 0, length: 0 }),
  };
}

/** Resolves a command's template id against the packages; a problem says why when it cannot. */
export function resolveTarget(templateId: unknown, context: ArgumentContext, allowInterface: boolean): TargetResolution {
  // The placeholder of a new file is flagged as one (placeholderProblems), not as an unknown template.
  if (typeof templateId !== 'string' || templateId === TEMPLATE_ID_PLACEHOLDER) return undefined;
  const id = parseIdentifier(templateId);
  // A malformed id is the envelope schema's to report.
  if (!id) return undefined;
  const { packages, source } = context;
  // A name stands for the package it resolves to now (the vetting state can change what that is).
  const packageId = id.form === 'package-id' ? id.packageId : packages.resolvePackageName(id.packageName);
  // A file (a script above all) names the same few templates in command after command: what was
  // found in a context's packages, which do not change, is looked up once (by the id as written, no
  // key made per command, while it stands for the same package).
  let found = foundTargets.get(context);
  if (!found) foundTargets.set(context, (found = new Map()));
  let entry = found.get(templateId);
  if (!entry || entry.packageId !== packageId) found.set(templateId, (entry = { packageId }));
  const foundBefore = allowInterface ? entry.templateOrInterface : entry.template;
  if (foundBefore) return foundBefore;
  if (!packageId || !packages.package(packageId)) {
    // Not among the packages read: when some could not be read, it may be in one of them.
    const unreadable = unreadableFor(id, context);
    if (unreadable.length > 0) return { problem: { message: `Cannot check: ${unreadable.map(unreadableText).join('; ')} could not be read ${source}.`, unchecked: true } };
    return { problem: { message: `No package ${id.form === 'package-name' ? `named "${id.packageName}"` : packageRefOf(id)} is known ${source}.` } };
  }
  const name: QualifiedName = { packageId, moduleName: id.moduleName, name: id.entityName };
  const kind = packages.template(name) ? 'template' : allowInterface && packages.interface(name) ? 'interface' : undefined;
  if (kind) {
    const resolved = { target: { id, name, kind } satisfies ResolvedTarget };
    if (allowInterface) entry.templateOrInterface = resolved;
    else entry.template = resolved;
    return resolved;
  }
  const pkg = packages.package(packageId)!;
  const known = pkg.modules.flatMap((m) => [...m.templates, ...(allowInterface ? m.interfaces : [])].map((t) => `${m.name}:${t.name}`));
  const suggestion = closestName(qualifiedNameOf(id), known);
  return {
    problem: {
      message: `Package ${pkg.name} ${pkg.version} has no template ${qualifiedNameOf(id)}${suggestion ? `: did you mean ${suggestion}?` : '.'}`,
      suggestion: suggestion && templateId.replace(qualifiedNameOf(id), suggestion),
    },
  };
}

export type TargetResolution = { target: ResolvedTarget } | { problem: { message: string; suggestion?: string; unchecked?: boolean } } | undefined;

/** What a template id was found to be in a context's packages, while it stands for `packageId`. */
interface FoundTarget {
  packageId: string | undefined;
  template?: { target: ResolvedTarget };
  templateOrInterface?: { target: ResolvedTarget };
}

const foundTargets = new WeakMap<ArgumentContext, Map<string, FoundTarget>>();

/** The choices that can be exercised on what `target` names. */
export function choicesOf(target: ResolvedTarget, packages: PackageIndex): readonly ChoiceEntry[] {
  if (target.kind === 'template') return packages.choices(target.name) ?? [];
  return (packages.interface(target.name)?.choices ?? []).map((choice) => ({ choice, declaredBy: target.name, declaredIn: 'interface' as const }));
}

/**
 * A problem of a command's Daml arguments before it is placed in a document: where it is, and
 * whether it is shown at the field's key (`anchor`, unknown and missing fields) or at the value.
 */
interface ArgumentIssue extends Omit<ProblemDraft, 'offset' | 'length'> {
  anchor: boolean;
}

function commandProblems(site: CommandSite, doc: JsonDocument, context: ArgumentContext, skip?: ReadonlySet<string>): ProblemDraft[] {
  const problems: ProblemDraft[] = [];
  for (const { anchor, ...issue } of commandIssues(site, context)) {
    if (skip?.has(issue.path)) continue;
    const node = doc.nodeAt(issue.path);
    if (node) problems.push({ ...issue, ...(anchor ? doc.anchorOf(node) : rangeOf(node)) });
  }
  return problems;
}

/**
 * Whether any command of `value` that `include` selects has a Daml argument error, as
 * {@link argumentProblems} would report one: for a value that has no text to place problems in (a
 * ledger script's commands once their `${…}` have values). What the errors are is for
 * `argumentProblems` to say, with positions.
 */
export function hasArgumentErrors(value: unknown, context: ArgumentContext, include: (site: CommandSite) => boolean = () => true): boolean {
  for (const site of commandSites(value)) {
    if (include(site) && commandIssues(site, context).some((i) => i.severity === 'error')) return true;
  }
  return false;
}

function commandIssues(site: CommandSite, context: ArgumentContext): ArgumentIssue[] {
  const { command, kind, pointer } = site;
  const issues: ArgumentIssue[] = [];
  const resolved = resolveTarget(command.templateId, context, kind === 'ExerciseCommand');
  if (!resolved) return issues;
  if ('problem' in resolved) {
    const data = resolved.problem.suggestion ? { suggestion: resolved.problem.suggestion } : undefined;
    const { unchecked, message } = resolved.problem;
    issues.push({ path: `${pointer}/templateId`, severity: unchecked ? 'warning' : 'error', code: unchecked ? 'package-unreadable' : 'unknown-template', message, data, anchor: false });
    return issues;
  }
  const { target } = resolved;
  const { packages } = context;
  if (kind === 'CreateCommand' || kind === 'CreateAndExerciseCommand') fieldIssues(site, 'createArguments', DamlTypes.con(target.name), packages, issues);
  if (kind === 'ExerciseByKeyCommand') fieldIssues(site, 'contractKey', packages.template(target.name)?.keyType, packages, issues);
  if (kind !== 'CreateCommand') {
    const choice = choiceIssue(command.choice, target, `${pointer}/choice`, context, issues);
    if (choice) fieldIssues(site, 'choiceArgument', choice.argType, packages, issues);
  }
  return issues;
}

/** The problems of a command's Daml value under `field`, checked against `type`. */
function fieldIssues({ command, pointer }: CommandSite, field: string, type: DamlType | undefined, packages: PackageIndex, issues: ArgumentIssue[]): void {
  if (type && field in command) issues.push(...valueIssues(checkValue(type, command[field], packages), `${pointer}/${field}`));
}

function choiceIssue(name: unknown, target: ResolvedTarget, pointer: string, context: ArgumentContext, issues: ArgumentIssue[]): Choice | undefined {
  if (typeof name !== 'string') return undefined;
  const choices = choicesOf(target, context.packages);
  const found = choices.find((c) => c.choice.name === name);
  if (found) return found.choice;
  const names = choices.map((c) => c.choice.name);
  const suggestion = closestName(name, names);
  issues.push({
    path: pointer,
    severity: 'error',
    code: 'unknown-choice',
    message: `${qualifiedNameOf({ moduleName: target.name.moduleName, entityName: target.name.name })} has no choice "${name}"${suggestion ? `: did you mean "${suggestion}"?` : ''} (${names.length ? `its choices: ${names.join(', ')}` : 'it has no choices'}).`,
    data: suggestion ? { suggestion } : undefined,
    anchor: false,
  });
  return undefined;
}

/** Value problems at their pointers: a field's key for unknown and missing fields, else the value. */
function valueIssues(found: ValueProblem[], base: string): ArgumentIssue[] {
  return found.map((p) => ({ path: p.path === '' ? base : base + p.path, severity: p.severity, code: p.code, message: p.message, data: p.data, anchor: p.code === 'unknown-field' || p.code === 'missing-field' }));
}
