/**
 * Ledger scripts (`*.ledger.json`): the model of a script file, the `${name}` references its values
 * carry, and the command ids a run gives its steps. Checked by `check.ts`, run by `run.ts`.
 */
import { joinPointer } from '../jsonPointer';
import { isJsonObject, type JsonDocument } from '../files/jsonDocument';
import type { Problem } from '../files/problems';

export const SCRIPT_SUFFIX = '.ledger.json';

/** What a step does: exactly one of these keys per step. */
export const STEP_KINDS = ['submit', 'preview', 'vet', 'uploadDar', 'activeContracts', 'contractEvents', 'updates'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/** The kinds that send commands, inline (JsCommands without a commandId) or from a commands file. */
export const COMMAND_STEP_KINDS: readonly StepKind[] = ['submit', 'preview'];
/** The kinds that read, with a party to read as. */
export const READ_STEP_KINDS: readonly StepKind[] = ['activeContracts', 'contractEvents', 'updates'];

export interface PartyAlias {
  alias: string;
  /** The id prefix looked for (`<hint>::`), or the hint a fresh party is allocated with. */
  hint: string;
  allocate: boolean;
  /** JSON pointer of the alias's entry. */
  pointer: string;
}

export interface UserAlias {
  alias: string;
  /** The participant user's id. */
  id: string;
  pointer: string;
}

export type CaptureSpec = 'updateId' | 'offset' | { contractId: string; field?: string };

export interface ContractCount {
  template: string;
  count?: number;
  fields?: Record<string, unknown>;
}

export interface StepExpectations {
  failed?: { code: string; message?: string };
  created?: ContractCount[];
  archived?: ContractCount[];
  visibleTo?: string[];
  notVisibleTo?: string[];
  activeContracts?: Array<{ party: string; template: string; count: number }>;
  count?: number;
  archivedContract?: boolean;
}

export interface ScriptStep {
  /** 0-based. */
  index: number;
  /** JSON pointer of the step (`/steps/2`): failures are placed at it or inside it. */
  pointer: string;
  name: string;
  kind: StepKind;
  /** The value under the kind's key, before `${…}` are replaced. */
  spec: unknown;
  capture: Record<string, CaptureSpec>;
  expect: StepExpectations;
}

export interface LedgerScript {
  parties: PartyAlias[];
  users: UserAlias[];
  steps: ScriptStep[];
}

/** The kinds a step object names (a well-formed step names exactly one). */
export function stepKindsOf(step: Record<string, unknown>): StepKind[] {
  return STEP_KINDS.filter((k) => k in step);
}

/** "submit 3": what a step without a name is called. */
export function defaultStepName(kind: StepKind, index: number): string {
  return `${kind} ${index + 1}`;
}

/** The model of a script value that passed its checks (`scriptProblems` reports what this skips). */
export function scriptOf(value: unknown): LedgerScript {
  const root = isJsonObject(value) ? value : {};
  const parties: PartyAlias[] = Object.entries(isJsonObject(root.parties) ? root.parties : {}).map(([alias, spec]) => {
    const s = isJsonObject(spec) ? spec : {};
    return { alias, hint: typeof s.hint === 'string' && s.hint ? s.hint : alias, allocate: s.allocate === true, pointer: joinPointer('/parties', alias) };
  });
  const users: UserAlias[] = Object.entries(isJsonObject(root.users) ? root.users : {}).map(([alias, spec]) => {
    const s = isJsonObject(spec) ? spec : {};
    return { alias, id: typeof s.id === 'string' && s.id ? s.id : alias, pointer: joinPointer('/users', alias) };
  });
  const steps: ScriptStep[] = [];
  const list = Array.isArray(root.steps) ? root.steps : [];
  list.forEach((raw: unknown, index) => {
    if (!isJsonObject(raw)) return;
    const [kind] = stepKindsOf(raw);
    if (!kind) return;
    steps.push({
      index,
      pointer: `/steps/${index}`,
      name: typeof raw.name === 'string' && raw.name ? raw.name : defaultStepName(kind, index),
      kind,
      spec: raw[kind],
      capture: (isJsonObject(raw.capture) ? raw.capture : {}) as Record<string, CaptureSpec>,
      expect: (isJsonObject(raw.expect) ? raw.expect : {}) as StepExpectations,
    });
  });
  return { parties, users, steps };
}

// ---------------------------------------------------------------- ${name}

const REFERENCE = /\$\{([^}]*)\}/g;

/** The name of a string that is exactly one `${name}` (what `/^\$\{([^}]*)\}$/` captures), without a regular expression's match. */
function wholeReference(text: string): string | undefined {
  return text.startsWith('${') && text.indexOf('}', 2) === text.length - 1 ? text.slice(2, -1) : undefined;
}

/** Each name of a `${name}` in `text`, in order (what `REFERENCE` matches), without the match objects of `matchAll`. */
export function forEachName(text: string, visit: (name: string) => void): void {
  for (let at = text.indexOf('${'); at !== -1; ) {
    const end = text.indexOf('}', at + 2);
    if (end === -1) return;
    visit(text.slice(at + 2, end));
    at = text.indexOf('${', end + 1);
  }
}

/** A `${name}` in a string of the script, and where that string is. */
export interface NameReference {
  name: string;
  /** The string's pointer; for a key, the pointer of its property. */
  pointer: string;
}

/**
 * Every `${name}` in the strings of `value` (keys included), with the pointer of the string that holds
 * it; with `wanted`, only the names it accepts (the others' pointers are not worked out).
 */
export function referencesIn(value: unknown, pointer: string, wanted?: (name: string) => boolean): NameReference[] {
  const found: NameReference[] = [];
  forEachReferencedString(value, (path, _inKey, text) => {
    let at: string | undefined;
    forEachName(text, (name) => {
      if (!wanted || wanted(name)) found.push({ name, pointer: (at ??= path.reduce<string>(joinPointer, pointer)) });
    });
  });
  return found;
}

/** The pointers of the strings of `value` that hold a `${…}` (keys aside): their values are known only when the script runs. */
export function referencedValues(value: unknown, pointer: string): Set<string> {
  const found = new Set<string>();
  forEachReferencedString(value, (path, inKey) => inKey || found.add(path.reduce<string>(joinPointer, pointer)));
  return found;
}

/**
 * Calls `visit` with the path (keys and indexes) and the text of every string of `value` that holds a
 * `${…}`; `inKey` for a key that holds one, with the path of its property. The path array is reused:
 * copy what is kept.
 */
export function forEachReferencedString(value: unknown, visit: (path: ReadonlyArray<string | number>, inKey: boolean, text: string) => void, path: Array<string | number> = []): void {
  if (typeof value === 'string') {
    if (hasReference(value)) visit(path, false, value);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      forEachReferencedString(value[i], visit, path);
      path.pop();
    }
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) {
      path.push(key);
      if (hasReference(key)) visit(path, true, key);
      forEachReferencedString(value[key], visit, path);
      path.pop();
    }
  }
}

/** A name used before anything bound it (the checks refuse such a script; this is the guard behind them). */
export class UnboundNameError extends Error {
  constructor(readonly unbound: string) {
    super(`\${${unbound}} has no value`);
  }
}

/**
 * `value` with every `${name}` replaced by its value. A string that is exactly one reference takes the
 * value with its type (a captured offset stays a number, a captured record a record); inside a longer
 * string the value is written as text. What holds no reference is returned as it is (not copied), and
 * values other than plain JSON (an `ExactNumber`) are kept.
 */
export function interpolate(value: unknown, scope: ReadonlyMap<string, unknown>): unknown {
  return mapReferencedStrings(
    value,
    (text) => {
      const whole = wholeReference(text);
      if (whole !== undefined) return valueOf(whole, scope);
      return text.replace(REFERENCE, (_, name: string) => {
        const v = valueOf(name, scope);
        return typeof v === 'string' ? v : JSON.stringify(v);
      });
    },
    true,
  );
}

function valueOf(name: string, scope: ReadonlyMap<string, unknown>): unknown {
  if (!scope.has(name)) throw new UnboundNameError(name);
  return scope.get(name);
}

/**
 * `value` with each `${name}` that `known` has replaced by its value, in strings (keys aside); any
 * other reference stays as it is (`onLeft` is called with each string that keeps one, as replaced, and
 * with each key that holds one: keys are not replaced). What holds none is returned as it is.
 */
export function replaceKnown(value: unknown, known: ReadonlyMap<string, string>, onLeft?: (text: string) => void): unknown {
  return mapReferencedStrings(
    value,
    (text) => {
      // Most are one whole reference (`${Alice}`): looked up without a replace.
      const whole = wholeReference(text);
      const replaced = whole !== undefined ? (known.get(whole) ?? text) : text.replace(REFERENCE, (reference, name: string) => known.get(name) ?? reference);
      if (onLeft && hasReference(replaced)) onLeft(replaced);
      return replaced;
    },
    false,
    onLeft,
  );
}

/**
 * `value` with each string that holds a `${…}` (and each such key, with `keys`) put through `map`,
 * copying only the arrays and plain objects on the way to a change: what holds no reference is
 * returned as it is, and values other than plain JSON (an `ExactNumber`) are kept. Without `keys`,
 * `onKeyKept` is called with each key that holds a `${…}`.
 */
function mapReferencedStrings(value: unknown, map: (text: string) => unknown, keys: boolean, onKeyKept?: (key: string) => void): unknown {
  if (typeof value === 'string') return hasReference(value) ? map(value) : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = mapReferencedStrings(value[i], map, keys, onKeyKept);
      if (v !== value[i]) (copy ??= value.slice())[i] = v;
    }
    return copy ?? value;
  }
  if (!isJsonObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const names = Object.keys(value);
  if (keys && names.some(hasReference)) {
    return Object.fromEntries(names.map((k) => [hasReference(k) ? (map(k) as string) : k, mapReferencedStrings(value[k], map, keys)]));
  }
  if (onKeyKept) for (const key of names) if (hasReference(key)) onKeyKept(key);
  let copy: Record<string, unknown> | undefined;
  for (const key of names) {
    const v = mapReferencedStrings(value[key], map, keys, onKeyKept);
    if (v !== value[key]) (copy ??= { ...value })[key] = v;
  }
  return copy ?? value;
}

/**
 * The names whose values a script's checks know before it runs, with those values: the party
 * aliases found on the participant (`resolved`, one party each; an alias allocated per run is not
 * among them), except a name a step captures, which stands for the captured value after that step.
 * The checks take these values; the run, which gives them the same, does not check them again.
 */
export function namesKnownBeforeRun(resolved: ReadonlyMap<string, string>, capturedNames: Iterable<string>): Map<string, string> {
  const known = new Map(resolved);
  for (const name of capturedNames) known.delete(name);
  return known;
}

/** True when a string holds a `${…}` (its value is known only when the script runs). */
export function hasReference(value: unknown): boolean {
  return typeof value === 'string' && value.includes('${');
}

/**
 * A party named in an expectation or a read: an alias (`Alice`), an alias reference (`${Alice}`), or a
 * party id (it has `::`). Returns the alias, or undefined for a party id.
 */
export function aliasOfPartyRef(ref: string): string | undefined {
  return wholeReference(ref) ?? (ref.includes('::') ? undefined : ref);
}

// ---------------------------------------------------------------- command ids

/**
 * Every command a script run sends has the id `ledger-script-<run id>-step-<n>` (n from 1): unique per
 * run, so a rerun is never deduplicated against an earlier one, and a failed command can be traced
 * back to its run and step.
 */
export const SCRIPT_COMMAND_ID_PREFIX = 'ledger-script-';

export function scriptCommandId(runId: string, stepIndex: number): string {
  return `${SCRIPT_COMMAND_ID_PREFIX}${runId}-step-${stepIndex + 1}`;
}

/** The run and step (0-based) of a command id a script run sent; undefined for any other id. */
export function scriptStepOfCommandId(commandId: string): { runId: string; stepIndex: number } | undefined {
  const m = /^ledger-script-([A-Za-z0-9]+)-step-([1-9][0-9]*)$/.exec(commandId);
  return m ? { runId: m[1], stepIndex: Number(m[2]) - 1 } : undefined;
}

// ---------------------------------------------------------------- positions

/** A range of the script with its line/column positions, as a problem of its checks has. */
export type ScriptPosition = Pick<Problem, 'offset' | 'length' | 'line' | 'column' | 'endLine' | 'endColumn'>;

/**
 * Where a pointer of a script is (a step, an expectation, a capture), for a failure shown at it: the
 * value's range, or the nearest enclosing value that exists (a step's `expect` when it has none).
 */
export function positionOf(doc: JsonDocument, pointer: string): ScriptPosition {
  let at = pointer;
  let node = doc.nodeAt(at);
  while (!node && at !== '') {
    at = at.slice(0, at.lastIndexOf('/'));
    node = doc.nodeAt(at);
  }
  const offset = node?.offset ?? 0;
  const length = node?.length ?? 0;
  const start = doc.position(offset);
  const end = doc.position(offset + length);
  return { offset, length, line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}
