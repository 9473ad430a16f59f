/** The diagnostics that validation of `*.commands.json` / `*.vetting.json` files produces. */

export type Severity = 'error' | 'warning';

/** Stable ids: editors, the CLI and quick fixes branch on these, never on message text. */
export const PROBLEM_CODES = [
  /** Not strict JSON (includes comments and trailing commas). */
  'json-syntax',
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
  /** A field Canton does not know and silently ignores; `data.suggestion` when a known name is close. */
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
] as const;

export type ProblemCode = (typeof PROBLEM_CODES)[number];

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
