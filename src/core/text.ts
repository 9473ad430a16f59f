/** Short forms and Markdown escapes for the labels, descriptions and tooltips of rows and messages. */

/** `00ab12cd…e9f0`: enough to tell contracts apart in a list. */
export function shortId(id: string, head = 10, tail = 4): string {
  return id.length > head + tail + 1 ? `${id.slice(0, head)}…${tail > 0 ? id.slice(-tail) : ''}` : id;
}

/**
 * A command id short enough for a row, yet told apart from its neighbours: whole up to 32 characters
 * (a script's `ledger-script-<run>-step-<n>`, whose runs differ in the middle), else both ends (a
 * tool's ids share their start; a UUID's last 12 digits alone tell it apart).
 */
export function shortCommandId(id: string): string {
  return id.length <= 32 ? id : shortId(id, 12, 12);
}

/** ISO time to the second (the participant sends microseconds; a list needs less). */
export function shortTime(iso: string | undefined): string {
  if (!iso) return '';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/** `1 contract`, `2 contracts` (`1 fetch`, `2 fetches` with the plural given). */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

/** Text shown literally inside Markdown (a tooltip). */
export function md(s: string): string {
  return s.replace(/([\\`*_{}[\]()#+\-.!|<>])/g, '\\$1');
}

/** Text as a Markdown code span (a backtick inside becomes a quote). */
export function code(s: string): string {
  return `\`${s.replace(/`/g, "'")}\``;
}

// C0 controls but tab and newline, DEL, and C1 controls (CSI is \x9b).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text for a terminal (the CLI's output, the Test Explorer's): control characters from a file or an
 * answer (an escape sequence in a step's name, a carriage return that overwrites a line) are shown as
 * `\x1b`, never run.
 */
export function terminalText(s: string): string {
  return s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
