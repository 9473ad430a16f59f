/**
 * What a ledger script's schema cannot say, with positions: each step has one kind; every `${name}`
 * is bound before it is used (the closest name suggested when misspelt); the parties of expectations
 * and reads are declared aliases; the aliases match one party each (when the participant's parties
 * are known); inline commands pass the commands file's schema and the Daml argument checks; the fields
 * expectations and captures name exist on their template. The editor shows these while typing, and a
 * run refuses a script that has any error before it sends anything.
 */
import type { ValidateFunction } from 'ajv';
import { argumentProblems, resolveTarget, type ArgumentContext } from '../files/argumentChecks';
import { placeholderProblems } from '../files/customChecks';
import { isJsonObject, rangeOf, type JsonDocument } from '../files/jsonDocument';
import type { ProblemDraft } from '../files/problems';
import { schemaProblems } from '../files/schemaProblems';
import { joinPointer } from '../jsonPointer';
import { closestName } from '../spelling';
import { aliasOfPartyRef, COMMAND_STEP_KINDS, forEachName, hasReference, namesKnownBeforeRun, referencedValues, referencesIn, replaceKnown, STEP_KINDS, stepKindsOf } from './script';

export interface ScriptCheckOptions {
  /** The commands file's validator, for inline commands. */
  validateCommands: ValidateFunction;
  packages?: ArgumentContext;
  /** The participant's party ids, to resolve the aliases against (absent: not checked). */
  parties?: { ids: readonly string[]; source: string };
  /**
   * Filled with the inline commands (by the pointer of their step's `submit` or `preview`) whose
   * every `${…}` names a party alias found on the participant, with those party ids in place: what
   * a run sends but for the commandId and userId it adds, checked as it will be sent.
   */
  checkedCommands?: Map<string, unknown>;
}

export function scriptProblems(value: unknown, doc: JsonDocument, o: ScriptCheckOptions): ProblemDraft[] {
  if (!isJsonObject(value)) return [];
  const problems: ProblemDraft[] = [];
  const at = (pointer: string, anchor = false) => {
    const node = doc.nodeAt(pointer);
    return node ? (anchor ? doc.anchorOf(node) : rangeOf(node)) : { offset: 0, length: 0 };
  };
  const push = (pointer: string, code: ProblemDraft['code'], message: string, data?: Record<string, unknown>, anchor = false) =>
    problems.push({ path: pointer, severity: 'error', code, message, ...at(pointer, anchor), ...(data ? { data } : {}) });

  const aliases = isJsonObject(value.parties) ? Object.keys(value.parties) : [];
  const resolution = o.parties ? resolveAliases(value.parties, o.parties) : undefined;
  if (resolution) problems.push(...aliasResolutionProblems(resolution.problems, doc));
  const userAliases = isJsonObject(value.users) ? Object.keys(value.users) : [];
  for (const both of userAliases.filter((u) => aliases.includes(u))) push(joinPointer('/users', both), 'unknown-party', `"${both}" names a party and a user: give one of them another alias.`, undefined, true);
  const scope = new Set<string>([...aliases, ...userAliases]);
  const steps = Array.isArray(value.steps) ? value.steps : [];
  // Where each name is captured, for "used before step N captures it".
  const capturedAt = new Map<string, number>();
  steps.forEach((step: unknown, index) => {
    if (isJsonObject(step) && isJsonObject(step.capture)) for (const name of Object.keys(step.capture)) if (!capturedAt.has(name)) capturedAt.set(name, index);
  });
  // The aliases found on the participant are checked with their party ids, as the run sends them.
  const known = resolution ? namesKnownBeforeRun(resolution.resolved, capturedAt.keys()) : undefined;

  steps.forEach((step: unknown, index) => {
    const pointer = `/steps/${index}`;
    if (!isJsonObject(step)) return;
    const kinds = stepKindsOf(step);
    if (kinds.length !== 1) {
      const message =
        kinds.length === 0
          ? `Step ${index + 1} does nothing: give it one of ${STEP_KINDS.join(', ')}.`
          : `Step ${index + 1} has ${kinds.length} kinds (${kinds.join(', ')}): one step does one thing; split it into ${kinds.length} steps.`;
      const stray = Object.keys(step).map((k) => closestName(k, STEP_KINDS)).find((k) => k !== undefined);
      push(pointer, 'unknown-step-kind', kinds.length === 0 && stray ? `${message.slice(0, -1)} (did you mean ${stray}?)` : message, undefined, true);
    }
    // Inline commands get the values known before the run; the names they keep are looked for in the
    // same walk, so that only a step with a name not bound walks them again (for where it is).
    const replaced: Record<string, KnownReplaced> = {};
    // A step's own captures are bound after it ran: its expectations and commands see only earlier ones.
    for (const key of NAMED_KEYS) {
      if (!(key in step)) continue;
      if (known && isInlineCommands(key, step[key])) {
        let left = false;
        let unbound = false;
        const commands = replaceKnown(step[key], known, (text) => {
          left = true;
          forEachName(text, (name) => (unbound ||= !scope.has(name)));
        });
        replaced[key] = { commands, left };
        if (!unbound) continue;
      }
      for (const ref of referencesIn(step[key], joinPointer(pointer, key), (name) => !scope.has(name))) {
        const later = capturedAt.get(ref.name);
        if (later !== undefined) {
          push(ref.pointer, 'unknown-name', `\${${ref.name}} is used before it is captured: step ${later + 1} captures it${later === index ? ' (a step\'s captures are bound after it ran)' : ''}.`);
        } else {
          const suggestion = closestName(ref.name, scope);
          push(ref.pointer, 'unknown-name', `\${${ref.name}} is not a party alias or an earlier capture${suggestion ? `: did you mean \${${suggestion}}?` : `${scope.size ? ` (known here: ${[...scope].join(', ')})` : ''}.`}`, suggestion ? { suggestion } : undefined);
        }
      }
    }
    for (const { ref, pointer: partyPointer } of partyRefs(step, pointer)) {
      const alias = aliasOfPartyRef(ref);
      if (alias === undefined || aliases.includes(alias) || hasReference(ref)) continue;
      const suggestion = closestName(alias, aliases);
      push(partyPointer, 'unknown-party', `"${ref}" is not a party alias of this script${suggestion ? `: did you mean "${suggestion}"?` : `${aliases.length ? ` (its aliases: ${aliases.join(', ')})` : ' (declare it under "parties")'}.`}`, suggestion ? { suggestion } : undefined);
    }
    for (const kind of COMMAND_STEP_KINDS) {
      if (isInlineCommands(kind, step[kind])) problems.push(...inlineCommandProblems(step[kind], joinPointer(pointer, kind), doc, o, replaced[kind]));
    }
    if (o.packages) problems.push(...fieldProblems(step, pointer, doc, o.packages));
    if (isJsonObject(step.capture)) for (const name of Object.keys(step.capture)) scope.add(name);
  });
  return problems;
}

/** Inline commands with the values known before the run in place, and whether any `${…}` is left. */
interface KnownReplaced {
  commands: unknown;
  left: boolean;
}

/** A submit or preview step's commands written in the script (not a commands file it names). */
function isInlineCommands(kind: string, value: unknown): value is Record<string, unknown> {
  return (COMMAND_STEP_KINDS as readonly string[]).includes(kind) && isJsonObject(value) && !('file' in value);
}

/** The keys of a step whose `${…}` must be bound when it runs. */
const NAMED_KEYS = ['name', ...STEP_KINDS, 'expect'] as const;

/** The parties an expectation or a read names, with their pointers. */
function* partyRefs(step: Record<string, unknown>, pointer: string): Generator<{ ref: string; pointer: string }> {
  for (const kind of ['activeContracts', 'contractEvents', 'updates'] as const) {
    const read = step[kind];
    if (isJsonObject(read) && typeof read.party === 'string') yield { ref: read.party, pointer: `${pointer}/${kind}/party` };
  }
  const expect = isJsonObject(step.expect) ? step.expect : {};
  for (const key of ['visibleTo', 'notVisibleTo'] as const) {
    const list = expect[key];
    if (Array.isArray(list)) for (let i = 0; i < list.length; i++) if (typeof list[i] === 'string') yield { ref: list[i], pointer: `${pointer}/expect/${key}/${i}` };
  }
  if (Array.isArray(expect.activeContracts)) {
    for (let i = 0; i < expect.activeContracts.length; i++) {
      const e: unknown = expect.activeContracts[i];
      if (isJsonObject(e) && typeof e.party === 'string') yield { ref: e.party, pointer: `${pointer}/expect/activeContracts/${i}/party` };
    }
  }
}

/**
 * Which participant party each alias stands for: the one whose id starts with `<hint>::`. None or
 * several is an error at the alias; an alias allocated per run is not looked for.
 */
export function resolveAliases(
  parties: unknown,
  known: { ids: readonly string[]; source: string },
): { resolved: Map<string, string>; problems: Array<{ alias: string; message: string }> } {
  const resolved = new Map<string, string>();
  const problems: Array<{ alias: string; message: string }> = [];
  for (const [alias, spec] of Object.entries(isJsonObject(parties) ? parties : {})) {
    const s = isJsonObject(spec) ? spec : {};
    if (s.allocate === true) continue;
    const hint = typeof s.hint === 'string' && s.hint ? s.hint : alias;
    const matches = known.ids.filter((id) => id.startsWith(`${hint}::`));
    if (matches.length === 1) resolved.set(alias, matches[0]);
    else if (matches.length === 0) {
      const prefixes = [...new Set(known.ids.map((id) => id.split('::')[0]))];
      const suggestion = closestName(hint, prefixes);
      problems.push({ alias, message: `No party ${known.source} has an id starting with "${hint}::"${suggestion ? `: did you mean "${suggestion}"?` : ''} (or allocate one per run: {"allocate": true}).` });
    } else {
      problems.push({ alias, message: `${matches.length} parties ${known.source} have ids starting with "${hint}::" (${matches.join(', ')}): which one is meant is not clear; give the alias a "hint" that only one matches.` });
    }
  }
  return { resolved, problems };
}

function aliasResolutionProblems(found: ReturnType<typeof resolveAliases>['problems'], doc: JsonDocument): ProblemDraft[] {
  return found.flatMap(({ alias, message }) => {
    const pointer = joinPointer('/parties', alias);
    const node = doc.nodeAt(pointer);
    return node ? [{ path: pointer, severity: 'error' as const, code: 'unknown-party' as const, message, ...doc.anchorOf(node) }] : [];
  });
}

/**
 * An inline JsCommands checked as a commands file is (with the commandId the run will give it): the
 * schema, the placeholders of a new file, and its Daml arguments against the packages. The names
 * known before the run are checked with their values (`known`: the commands with them in place); a
 * value that holds any other `${…}` is known only when the script runs: the run checks it again then.
 */
function inlineCommandProblems(spec: Record<string, unknown>, base: string, doc: JsonDocument, o: ScriptCheckOptions, known: KnownReplaced | undefined): ProblemDraft[] {
  // Whether a value keeps a `${…}` after the known names: only then are such values looked for.
  const left = known ? known.left : true;
  const commands = (known ? known.commands : spec) as Record<string, unknown>;
  // Not `{ ...commands, commandId }`: V8 (Node 20) makes an object spread followed by a new property
  // through a slow path, and the schema validator reads the object it makes 4× slower (8 µs, not 2).
  const value = Object.assign({}, commands, { commandId: 'ledger-script' });
  const waiting = left ? referencedValues(commands, base) : NOTHING_WAITS;
  if (!left) o.checkedCommands?.set(base, commands);
  const drafts: ProblemDraft[] = [];
  if (!o.validateCommands(value)) {
    // Errors at a `${…}` are dropped before they are described (most of a script's are).
    const errors = (o.validateCommands.errors ?? []).filter((e) => !waiting.has(base + e.instancePath)).map((e) => ({ ...e, instancePath: base + e.instancePath }));
    drafts.push(...schemaProblems(errors, doc));
  }
  drafts.push(...placeholderProblems('commands', value, doc, base));
  if (o.packages) drafts.push(...argumentProblems(value, doc, o.packages, base, waiting));
  return drafts.filter((d) => !waiting.has(d.path));
}

const NOTHING_WAITS: ReadonlySet<string> = new Set();

/** Fields named by `created[].fields` and by captures (`field`) that the template's record does not have. */
function fieldProblems(step: Record<string, unknown>, pointer: string, doc: JsonDocument, packages: ArgumentContext): ProblemDraft[] {
  const sites: Array<{ template: unknown; field: string; pointer: string; anchor: boolean }> = [];
  const expect = isJsonObject(step.expect) ? step.expect : {};
  if (Array.isArray(expect.created)) {
    expect.created.forEach((c: unknown, i) => {
      if (isJsonObject(c) && isJsonObject(c.fields)) for (const f of Object.keys(c.fields)) sites.push({ template: c.template, field: f, pointer: joinPointer(`${pointer}/expect/created/${i}/fields`, f), anchor: true });
    });
  }
  for (const [name, capture] of Object.entries(isJsonObject(step.capture) ? step.capture : {})) {
    if (isJsonObject(capture) && typeof capture.field === 'string') sites.push({ template: capture.contractId, field: capture.field.split('.')[0], pointer: `${joinPointer(`${pointer}/capture`, name)}/field`, anchor: false });
  }
  const problems: ProblemDraft[] = [];
  for (const site of sites) {
    const resolved = resolveTarget(site.template, packages, false);
    if (!resolved || !('target' in resolved)) continue;
    const record = packages.packages.dataType(resolved.target.name);
    if (record?.kind !== 'record') continue;
    const names = record.fields.map((f) => f.name);
    if (names.includes(site.field)) continue;
    const node = doc.nodeAt(site.pointer);
    if (!node) continue;
    const suggestion = closestName(site.field, names);
    problems.push({
      path: site.pointer,
      severity: 'error',
      code: 'unknown-field',
      message: `${resolved.target.name.moduleName}:${resolved.target.name.name} has no field "${site.field}"${suggestion ? `: did you mean "${suggestion}"?` : ''} (its fields: ${names.join(', ')}).`,
      ...(site.anchor ? doc.anchorOf(node) : rangeOf(node)),
      ...(suggestion ? { data: { suggestion } } : {}),
    });
  }
  return problems;
}
