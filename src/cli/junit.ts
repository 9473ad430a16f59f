/**
 * JUnit XML of script runs, the report format CI systems read (GitHub Actions test reporters, GitLab's
 * `artifacts:reports:junit`, Jenkins' junit step): one `<testsuite>` per script, one `<testcase>` per
 * step. A failed expectation is a `<failure>`, an unknown outcome or a refused script an `<error>`, a
 * step not run `<skipped>`.
 */
import { JsonDocument } from '../core/files/jsonDocument';
import type { ScriptRun, StepResult } from '../core/scripts/run';
import { positionOf } from '../core/scripts/script';

export interface ScriptReport {
  file: string;
  text: string;
  run: ScriptRun;
  /** When the run started (ISO 8601). */
  startedAt: string;
}

export function junitXml(reports: readonly ScriptReport[]): string {
  const totals = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
  const suites = reports.map((r) => {
    const doc = new JsonDocument(r.text);
    const cases = r.run.steps.map((s) => testcase(r.file, s, positionOf(doc, s.pointer).line));
    if (r.run.status === 'refused') {
      const details = r.run.problems.map((p) => `${r.file}:${p.line}:${p.column}: ${p.message} [${p.code}]`).join('\n');
      cases.unshift(`    <testcase classname="${attr(r.file)}" name="checks" time="0" file="${attr(r.file)}" line="${r.run.problems[0]?.line ?? 1}">\n      <error message="${attr(`The script has ${r.run.problems.length} error(s); nothing was sent.`)}" type="refused">${text(details)}</error>\n    </testcase>`);
    }
    const count = (status: StepResult['status']) => r.run.steps.filter((s) => s.status === status).length;
    const suite = {
      tests: r.run.steps.length + (r.run.status === 'refused' ? 1 : 0),
      failures: count('failed'),
      errors: count('unknown') + (r.run.status === 'refused' ? 1 : 0),
      skipped: count('not-run'),
      time: r.run.steps.reduce((t, s) => t + s.durationMs, 0) / 1000,
    };
    for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += suite[k];
    return (
      `  <testsuite name="${attr(r.file)}" tests="${suite.tests}" failures="${suite.failures}" errors="${suite.errors}" skipped="${suite.skipped}" time="${seconds(suite.time)}" timestamp="${attr(r.startedAt)}">\n` +
      `    <properties>\n      <property name="runId" value="${attr(r.run.runId)}"/>\n      <property name="status" value="${attr(r.run.status)}"/>\n    </properties>\n` +
      cases.join('\n') +
      '\n  </testsuite>'
    );
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="canton-ledger test" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${seconds(totals.time)}">\n` +
    suites.join('\n') +
    '\n</testsuites>\n'
  );
}

function testcase(file: string, s: StepResult, line: number): string {
  const head = `    <testcase classname="${attr(file)}" name="${attr(`${s.index + 1}. ${s.name}`)}" time="${seconds(s.durationMs / 1000)}" file="${attr(file)}" line="${line}"`;
  const body = (tag: string, message: string, type: string, details?: string) => `${head}>\n      <${tag} message="${attr(message)}" type="${type}">${text(details ?? message)}</${tag}>\n    </testcase>`;
  const details = s.failures.map((f) => [f.message, f.expected !== undefined ? `expected: ${f.expected}` : '', f.actual !== undefined ? `actual: ${f.actual}` : '', `at ${f.pointer}`].filter(Boolean).join('\n')).join('\n\n');
  switch (s.status) {
    case 'passed':
      return `${head}/>`;
    case 'failed':
      return body('failure', s.failures[0]?.message ?? 'failed', 'expectation', details);
    case 'unknown':
      return body('error', s.failures[0]?.message ?? 'outcome unknown', 'outcome-unknown', details);
    case 'not-run':
      return `${head}>\n      <skipped message="${attr(s.notRunBecause === 'cancelled' ? 'not run: cancelled' : 'not run: an earlier step did not pass')}"/>\n    </testcase>`;
  }
}

function seconds(s: number): string {
  return s.toFixed(3);
}

// XML 1.0 has no place for most control characters, even escaped.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function text(s: string): string {
  return s.replace(NOT_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
