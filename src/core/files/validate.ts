/**
 * Validation of the files users write: `*.commands.json` (JsCommands, or the full
 * submit-and-wait-for-transaction request), `*.vetting.json` (UpdateVettedPackagesRequest) and
 * `*.ledger.json` (ledger scripts), each kind one entry of the table `FILE_KINDS`.
 *
 * The schemas in media/schemas/ are the single source for VS Code (completion, hover) and for this
 * module, which runs them as standalone validators generated at build time (scripts/build-schemas.mjs)
 * and adds what JSON Schema cannot say: exact positions, friendlier messages, duplicate keys and
 * package-id template references.
 */
import type { ValidateFunction } from 'ajv';
import { packageIdTemplateProblems, duplicateKeyProblems, placeholderProblems, type CommandSite } from './customChecks';
import { argumentProblems, hasArgumentErrors, type ArgumentContext } from './argumentChecks';
import { JsonDocument } from './jsonDocument';
import { checkNumbers } from './numbers';
import type { Problem, ProblemDraft } from './problems';
import { schemaProblems } from './schemaProblems';
import { scriptProblems } from '../scripts/check';

export { PROBLEM_CODES, type Problem, type ProblemCode, type Severity } from './problems';

/**
 * What makes a kind of file: its name's suffix, its schema, and its checks beyond the schema. A kind
 * is one entry of `FILE_KINDS`; the check runs each kind's parts, and knows no kind by name.
 */
interface FileKindDefinition {
  /** The end of its files' names, in lower case (`transfer.commands.json`). */
  suffix: string;
  /** Its schema, compiled at build time (`media/schemas/`). */
  validator(generated: GeneratedValidators): ValidateFunction;
  /** A schema problem as this kind says it. */
  schemaProblem?(draft: ProblemDraft): ProblemDraft;
  /** The checks that need only the parsed text, after the schema's, the numbers' and the duplicate keys'. */
  textChecks?(value: unknown, doc: JsonDocument): ProblemDraft[];
  /** Its values are Daml values (checked for placeholders before sending, given the packages). */
  damlValues?: true;
  /** The checks that need the options (packages, party ids); `found`: the problems found before them. */
  optionChecks?(value: unknown, doc: JsonDocument, found: readonly ProblemDraft[], options: ValidateOptions): ProblemDraft[];
}

export type FileKind = 'commands' | 'vetting' | 'script';

const FILE_KINDS: { readonly [K in FileKind]: FileKindDefinition } = {
  commands: {
    suffix: '.commands.json',
    validator: (g) => g.validateCommands,
    damlValues: true,
    textChecks: (value, doc) => placeholderProblems('commands', value, doc),
    optionChecks: (value, doc, found, options) => {
      const drafts = packageIdTemplateProblems(value, doc, new Set(found.map((d) => d.path)));
      if (options.packages) drafts.push(...argumentProblems(value, doc, options.packages === 'unavailable' ? undefined : options.packages));
      return drafts;
    },
  },
  vetting: {
    suffix: '.vetting.json',
    validator: (g) => g.validateVetting,
    textChecks: (value, doc) => placeholderProblems('vetting', value, doc),
  },
  script: {
    suffix: '.ledger.json',
    validator: (g) => g.validateScript,
    schemaProblem: asScriptProblem,
    optionChecks: (value, doc, _found, options) => {
      const packages = options.packages === 'unavailable' ? undefined : options.packages;
      return scriptProblems(value, doc, { validateCommands: validatorFor('commands'), packages, parties: options.parties, checkedCommands: options.checkedCommands });
    },
  },
};

const FILE_KIND_ENTRIES = Object.entries(FILE_KINDS) as ReadonlyArray<[FileKind, FileKindDefinition]>;

/** The kind of a file by its name (`transfer.commands.json` → `commands`); undefined for other files. */
export function fileKindOf(fileName: string): FileKind | undefined {
  const lower = fileName.toLowerCase();
  return FILE_KIND_ENTRIES.find(([, kind]) => lower.endsWith(kind.suffix))?.[0];
}

/** The end of a kind's file names (`.commands.json`). */
export function fileKindSuffix(kind: FileKind): string {
  return FILE_KINDS[kind].suffix;
}

/** The ends of the file names of every kind, in the table's order. */
export const FILE_KIND_SUFFIXES: readonly string[] = FILE_KIND_ENTRIES.map(([, kind]) => kind.suffix);

export interface ValidationResult {
  /**
   * The parsed JSON, or undefined if the text is not valid JSON. Set even when there are schema
   * problems. Numbers a double cannot hold are `ExactNumber`s: send it with `stringifyJson`.
   */
  value: unknown | undefined;
  /** Sorted by position. */
  problems: Problem[];
}

export interface ValidateOptions {
  /**
   * The packages to check Daml arguments against (a participant's, or a .dar's); `unavailable` when
   * there are none to be had (offline), which an `arguments-unchecked` note then says. Absent: only
   * the envelope is checked, silently.
   */
  packages?: ArgumentContext | 'unavailable';
  /** A ledger script's aliases are resolved against these party ids (absent: not checked). */
  parties?: { ids: readonly string[]; source: string };
  /** A ledger script's inline commands that a run can send as checked (see `ScriptCheckOptions`). */
  checkedCommands?: Map<string, unknown>;
}

export function validateText(kind: FileKind, text: string, options: ValidateOptions = {}): ValidationResult {
  return startValidation(kind, text).finish(options);
}

/**
 * The check a file passes before it is sent (by the editor, the CLI and a ledger script alike): its
 * errors, and, given the packages, its Daml values' placeholders (`"<Text>"`, `"<Numeric 10>"`). A
 * participant would take a placeholder of a Text as the text itself; every other wrong value is left
 * to the participant, whose answer names it (and Go to Cause finds it).
 */
export function checkBeforeSending(kind: FileKind, text: string, packages?: ArgumentContext): ValidationResult {
  const pending = startValidation(kind, text);
  const plain = pending.finish();
  if (!packages || !FILE_KINDS[kind].damlValues || plain.value === undefined) return plain;
  const placeholders = pending.finish({ packages }).problems.filter((p) => p.code === 'placeholder' && !plain.problems.some((q) => q.offset === p.offset && q.code === p.code));
  if (placeholders.length === 0) return plain;
  return { value: plain.value, problems: [...plain.problems, ...placeholders].sort(byPosition) };
}

/** A check begun on the text alone; `finish` adds what needs the options (packages, party ids). */
export interface PendingValidation {
  /** The parsed JSON, not yet checked (undefined if the text is not JSON). */
  readonly value: unknown;
  finish(options?: ValidateOptions): ValidationResult;
}

/**
 * {@link validateText} in two halves, with the same result: the text is parsed and checked against
 * the schema now, the rest when `finish` is given the options. A caller that is waiting for those
 * (a run reading the participant's parties) does the first half in the meantime.
 */
export function startValidation(kind: FileKind, text: string): PendingValidation {
  try {
    const started = startCheck(kind, text);
    if ('problems' in started) return { value: undefined, finish: () => started };
    return {
      value: started.value,
      finish: (options = {}) => {
        try {
          return finishCheck(started, options);
        } catch (e) {
          return checkFailed(e);
        }
      },
    };
  } catch (e) {
    const failed = checkFailed(e);
    return { value: undefined, finish: () => failed };
  }
}

/** A bug of ours on some input must not end the caller's loop (the editor's diagnostics, a CLI batch): the file gets a verdict that says so. */
function checkFailed(e: unknown): ValidationResult {
  if (e instanceof GeneratedValidatorsMissing) throw e;
  const message = `The file could not be checked (${e instanceof Error ? e.message : String(e)}); please report this file.`;
  return { value: undefined, problems: finish(new JsonDocument(''), [{ path: '', message, severity: 'error', code: 'check-failed', offset: 0, length: 0 }]) };
}

/** The half of a check that needs only the text. */
interface StartedCheck {
  kind: FileKind;
  doc: JsonDocument;
  value: unknown;
  numbers: ReturnType<typeof checkNumbers>;
  drafts: ProblemDraft[];
}

function startCheck(kind: FileKind, text: string): StartedCheck | ValidationResult {
  const doc = new JsonDocument(text);
  if (doc.syntaxProblems.length > 0) {
    const drafts = doc.syntaxProblems.map(
      (p): ProblemDraft => ({ path: '', message: p.message, severity: 'error', code: p.tooDeep ? 'too-deep' : 'json-syntax', offset: p.offset, length: p.length }),
    );
    return { value: undefined, problems: finish(doc, drafts) };
  }

  // No syntax problem: the document has parsed the text with JSON.parse already (only a `null` is
  // parsed again).
  const value: unknown = doc.takeValue() ?? JSON.parse(text);
  const definition = FILE_KINDS[kind];
  const validate = validatorFor(kind);
  const schema = validate(value) ? [] : schemaProblems(validate.errors ?? [], doc);
  const drafts = definition.schemaProblem ? schema.map(definition.schemaProblem) : schema;
  const numbers = checkNumbers(doc, value, validate);
  drafts.push(...numbers.problems);
  drafts.push(...duplicateKeyProblems(doc));
  if (definition.textChecks) drafts.push(...definition.textChecks(value, doc));
  return { kind, doc, value, numbers, drafts };
}

function finishCheck(started: StartedCheck, options: ValidateOptions): ValidationResult {
  const { kind, doc, value, numbers } = started;
  // A copy: `finish` may be called again, with other options.
  const drafts = started.drafts.slice();
  const { optionChecks } = FILE_KINDS[kind];
  if (optionChecks) drafts.push(...optionChecks(value, doc, started.drafts, options));
  return { value: numbers.exactValue, problems: finish(doc, drafts) };
}

/**
 * Whether a commands value that has no text passes the schema and the Daml argument checks of
 * {@link validateText}, for the commands `argumentsOf` selects (the others' are taken as checked).
 * The rest — positions, duplicate keys, numbers as written, placeholders — is the caller's to rule
 * out; a value that does not pass is checked as text, which says what is wrong and where.
 */
export function commandsValuePasses(value: unknown, packages: ArgumentContext | undefined, argumentsOf: (site: CommandSite) => boolean): boolean {
  if (!validatorFor('commands')(value)) return false;
  return !packages || !hasArgumentErrors(value, packages, argumentsOf);
}

/**
 * A field a ledger script does not know is not sent anywhere to be ignored: the runner would skip it
 * (a misspelt `expect` checks nothing), so it is an error. Inline commands are checked as commands files are.
 */
function asScriptProblem(d: ProblemDraft): ProblemDraft {
  if (d.code !== 'unknown-field') return d;
  const suggestion = typeof d.data?.suggestion === 'string' ? d.data.suggestion : undefined;
  return { ...d, severity: 'error', message: `Unknown field "${String(d.data?.field)}": a ledger script has no such field${suggestion ? `; did you mean "${suggestion}"?` : '.'}` };
}

type GeneratedValidators = typeof import('./generated/validators');
let generated: GeneratedValidators | undefined;

function validatorFor(kind: FileKind): ValidateFunction {
  // Loaded on first use so that activating the extension does not pay for it.
  generated ??= loadGeneratedValidators();
  return FILE_KINDS[kind].validator(generated);
}

/** A broken build, not a property of the file: raised, never turned into a diagnostic. */
class GeneratedValidatorsMissing extends Error {
  constructor(cause: unknown) {
    super('The schema validators have not been generated: run `node scripts/build-schemas.mjs` (part of `npm run build`).', { cause });
  }
}

function loadGeneratedValidators(): GeneratedValidators {
  try {
    return require('./generated/validators') as GeneratedValidators;
  } catch (error) {
    throw new GeneratedValidatorsMissing(error);
  }
}

/** Sorts, drops exact duplicates and adds line/column positions. */
function finish(doc: JsonDocument, drafts: ProblemDraft[]): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const draft of drafts) {
    const key = `${draft.offset}:${draft.length}:${draft.code}:${draft.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const start = doc.position(draft.offset);
    const end = doc.position(draft.offset + draft.length);
    problems.push({ ...draft, line: start.line, column: start.column, endLine: end.line, endColumn: end.column });
  }
  return problems.sort(byPosition);
}

function byPosition(a: Problem, b: Problem): number {
  return a.offset - b.offset || a.code.localeCompare(b.code);
}
