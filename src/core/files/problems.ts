/** The diagnostics that validation of `*.commands.json` / `*.vetting.json` files produces. */
import { VALUE_PROBLEM_CODES, type ValueProblemCode } from '../daml/jsonEncoding';


/** `info`: a note on what was not checked, never a fault of the file. */
export type Severity = 'error' | 'warning' | 'info';

/** Stable ids: editors, the CLI and quick fixes branch on these, never on message text. */
const FILE_PROBLEM_CODES = [
  /** Not strict JSON (includes comments and trailing commas). */
  'json-syntax',
  /** The checks themselves failed on this file (a bug): the message says why. */
  'check-failed',
  /** Objects and arrays nested deeper than the limit (`MAX_NESTING`): nothing else is checked. */
  'too-deep',
  /** Any other schema violation: wrong type, bad format, value out of range, … */
  'schema',
  /** Required fields are missing (`data.properties`), or none of a set is given (`data.oneOf`). */
  'missing-field',
  /** `commandId` is missing or empty. */
  'missing-command-id',
  /** `actAs` is missing or empty. */
  'empty-act-as',
  /** Vetting `changes` is missing or empty. */
  'empty-changes',
  /**
   * A field Canton does not know and silently ignores; in a Daml value, a field the record does not
   * have (an error). `data.suggestion` when a known name is close.
   */
  'unknown-field',
  /** A pre-Canton-3 field name that is silently ignored; `data.suggestion` holds its replacement. */
  'deprecated-field',
  /** A variant object (`{"CreateCommand": …}`, `{"Vet": …}`, …) with an unknown or extra case key. */
  'unknown-variant',
  /** A variant's `Empty` ("unset") case where the participant accepts it as if the field were left out: a warning. */
  'unset-variant',
  /** Two fields that must not be set together (`data.fields`). */
  'conflicting-fields',
  /** A template/interface id in package-id form where the package-name form is preferred or required. */
  'package-id-template',
  /** The same key twice in one object. */
  'duplicate-key',
  /** A placeholder a new file or a completion was written with (a template id, a vetting file's package name, a Daml value such as "<Numeric 10>"), not replaced yet. */
  'placeholder',
  /** An integer field given a number no 64-bit integer holds (judged on the text, not on the double). */
  'integer-range',
  /** An integer field given a number that is not whole as written (`1e-400`, which JSON.parse reads as 0). */
  'not-an-integer',
  /** A number a double cannot hold (beyond 2^53, too many digits): sent as written, but other tools would change it. */
  'inexact-number',
  // Checks of Daml values against the ledger's packages (`missing-field` and `unknown-field` serve there too).
  /** The arguments were not checked: no packages (no participant, no .dar). Severity info. */
  'arguments-unchecked',
  /** The template id names no package or template the packages know; `data.suggestion` when one is close. */
  'unknown-template',
  /** The template (or interface) has no such choice; `data.suggestion` when one is close. */
  'unknown-choice',
  /** Not checked: the template id may name a package that could not be read (named with its error). A warning. */
  'package-unreadable',
  // Ledger scripts (`*.ledger.json`).
  /** A step with no kind (submit, preview, …) or more than one. */
  'unknown-step-kind',
  /** A `${name}` that nothing binds before it is used: misspelt (`data.suggestion`), or captured only later. */
  'unknown-name',
  /** A party alias that is not declared, or that matches no party (or several) of the participant; a user alias naming no user. */
  'unknown-party',
  // The pre-flight of a commands file across the network (`core/network/preflight.ts`).
  /** The package version Canton will use for the file's parties (info). */
  'preflight-version',
  /** No version of the package is vetted on every host of the file's parties: the command will fail (error). */
  'preflight-no-version',
  /** The pre-flight could not tell (a host did not answer, the token may not read, the release cannot say): a warning, never a pass. */
  'preflight-unchecked',
  /** A vetting change would take a usable version of a package from a party hosted on its participant (`core/network/vettingDryRun.ts`). */
  'vetting-loss',
  // The codes of a Daml value checked against its type: declared once, with the checker.
  ...VALUE_PROBLEM_CODES.filter((code) => code !== 'missing-field' && code !== 'unknown-field' && code !== 'placeholder'),
] as const;

export type ProblemCode = (typeof FILE_PROBLEM_CODES)[number] | ValueProblemCode;

/** Every code a file problem can have. */
export const PROBLEM_CODES: readonly ProblemCode[] = FILE_PROBLEM_CODES;

export interface Problem {
  /** JSON pointer of the value concerned, e.g. `/commands/0/CreateCommand/templateId`; for missing fields, the object that lacks them. */
  path: string;
  message: string;
  severity: Severity;
  code: ProblemCode;
  offset: number;
  length: number;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
  endLine: number;
  endColumn: number;
  /** Facts for quick fixes, e.g. `{ suggestion: 'userId' }`. */
  data?: Record<string, unknown>;
}

/** A problem before line/column are computed. */
export type ProblemDraft = Omit<Problem, 'line' | 'column' | 'endLine' | 'endColumn'>;
