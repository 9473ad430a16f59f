/**
 * Every word of the compatibility report: the line of each finding, the summary, the headings, and
 * the report as text (the CLI's `doctor`) and as Markdown (the editor's tooltip and document). Nothing
 * else writes report text, so the CLI, the editor and a refused request say the same thing.
 */
import { shortVersion } from '../versions';
import type { CompatibilityFinding, CompatibilityReport, CompatibilitySource, OperationCompatibility, OperationStatus, TableOnlyReason } from './report';

type FindingFacts = Omit<CompatibilityFinding, 'line'>;

/** The hint of a request refused before sending because the participant's description says it would refuse it. */
export const REFUSED_REQUEST_HINT =
  "The participant's own API description (GET /docs/openapi) says it would refuse this request, so it was not sent: `canton-ledger doctor` shows the whole compatibility report.";

const list = (values: readonly string[] | undefined, max = 6) =>
  !values || values.length === 0 ? 'none' : values.length <= max ? values.join(', ') : `${values.slice(0, max).join(', ')} and ${values.length - max} more`;

/** The line for a finding: the endpoint, the field, and what happens to the request. */
export function findingLine(f: FindingFacts): string {
  const at = `${f.method} ${f.path}`;
  switch (f.kind) {
    case 'endpoint-missing':
      return `${at}: the participant does not have this endpoint; requests are not sent`;
    case 'method-missing':
      return `${at}: the participant has the path, but not with ${f.method} (it has ${list(f.known)}); requests are not sent`;
    case 'body-kind':
      return `${at}: the participant takes another kind of body (${list(f.known)}); requests are not sent`;
    case 'required-field':
      return f.sentSometimes
        ? `${at}: ${f.field} is required by the participant; requests without it are not sent`
        : `${at}: ${f.field} is required by the participant, and the extension does not send it; requests are not sent`;
    case 'enum-value':
      return `${at}: ${f.field} = ${f.value} is not a value the participant knows (it knows ${list(f.known)}); requests with it are not sent`;
    case 'unknown-case':
      return `${at}: ${f.field}.${f.value} is not a case the participant knows (it knows ${list(f.known)}); requests with it are not sent`;
    case 'unknown-field':
      return `${at}: ${f.field} is not a field the participant knows; it ignores it`;
    case 'unknown-query-parameter':
      return `${at}: the query parameter ${f.field} is not one the participant knows; it ignores it`;
    case 'answer-field':
      return f.renamedTo
        ? `${at}: the answer's ${f.field} is not declared by the participant (it declares ${f.renamedTo}: renamed?); it is shown as absent`
        : `${at}: the answer's ${f.field} is not declared by the participant; it is shown as absent`;
  }
}

const TABLE_ONLY: Record<TableOnlyReason, string> = {
  'not-served': 'the participant does not serve its API description (GET /docs/openapi)',
  refused: 'the participant refused to send its API description (GET /docs/openapi)',
  unreadable: 'the participant’s API description (GET /docs/openapi) could not be read',
  unreachable: 'the participant’s API description (GET /docs/openapi) did not come',
};

/** How the report was made, in a few words. */
export function sourceText(source: CompatibilitySource): string {
  return source.kind === 'participant-spec'
    ? `checked against the participant's own API description (GET /docs/openapi${source.documentVersion ? `, ${source.documentVersion}` : ''})`
    : `checked against the version table only: ${TABLE_ONLY[source.reason]}`;
}

/** The one-line summary of a report. */
export function summaryLine(report: Omit<CompatibilityReport, 'summary'>): string {
  const count = (s: OperationStatus) => report.operations.filter((o) => o.status === s).length;
  const refused = count('refused');
  const partly = count('partly-refused');
  const limited = count('limited');
  const problems = [refused && `${refused} refused`, partly && `${partly} partly refused`, limited && `${limited} limited`].filter(Boolean);
  const verdict =
    report.source.kind === 'version-table'
      ? 'the version table decides what is sent'
      : problems.length === 0
        ? 'everything the extension sends is accepted'
        : `${problems.join(', ')} of ${report.operations.filter((o) => o.status !== 'not-in-version' && o.status !== 'not-checked').length} operations`;
  return `Canton ${shortVersion(report.version)}, ${sourceText(report.source)}: ${verdict}.`;
}

const STATUS_HEADINGS: Record<OperationStatus, string> = {
  refused: 'Refused (not sent)',
  'partly-refused': 'Partly refused',
  limited: 'Limited',
  works: 'Works',
  'not-in-version': 'Not in this version (the version table)',
  'not-checked': 'Not checked (the websocket channels are described in GET /docs/asyncapi)',
};
const STATUS_ORDER: OperationStatus[] = ['refused', 'partly-refused', 'limited', 'works', 'not-in-version', 'not-checked'];
const UNUSED_HEADING = 'Not used yet (the participant has them; the extension does not send them)';

/** How an operation is named in a list: its title and endpoint. */
function operationLabel(o: OperationCompatibility): string {
  return o.method ? `${o.title} (${o.method} ${o.path})` : o.title;
}

/** The report for a terminal: the summary, then each status with its operations and their findings. */
export function reportText(report: CompatibilityReport): string[] {
  const lines = [report.summary];
  if (report.versionNotice) lines.push(report.versionNotice);
  for (const status of STATUS_ORDER) {
    const ops = report.operations.filter((o) => o.status === status);
    if (ops.length === 0) continue;
    lines.push('', `${STATUS_HEADINGS[status]} (${ops.length}):`);
    if (status === 'works' || status === 'not-in-version' || status === 'not-checked') {
      lines.push(...ops.map((o) => `  ${operationLabel(o)}`));
      continue;
    }
    for (const o of ops) lines.push(`  ${o.title}:`, ...o.findings.map((f) => `    ${f.severity === 'error' ? '✗' : '!'} ${f.line}`));
  }
  if (report.unused.length > 0) lines.push('', `${UNUSED_HEADING} (${report.unused.length}):`, ...report.unused.map((e) => `  ${e.method} ${e.path}`));
  return lines;
}

/** The report as Markdown (a tooltip, a document): the same words as {@link reportText}. */
export function reportMarkdown(report: CompatibilityReport): string {
  const code = (s: string) => `\`${s.replace(/`/g, '')}\``;
  const lines = [`**${escapeMarkdown(report.summary)}**`];
  if (report.versionNotice) lines.push('', escapeMarkdown(report.versionNotice));
  for (const status of STATUS_ORDER) {
    const ops = report.operations.filter((o) => o.status === status);
    if (ops.length === 0) continue;
    lines.push('', `**${STATUS_HEADINGS[status]}** (${ops.length})`, '');
    if (status === 'works' || status === 'not-in-version' || status === 'not-checked') {
      lines.push(...ops.map((o) => `- ${escapeMarkdown(o.title)}${o.method ? ` ${code(`${o.method} ${o.path}`)}` : ''}`));
      continue;
    }
    for (const o of ops) lines.push(`- ${escapeMarkdown(o.title)}`, ...o.findings.map((f) => `  - ${f.severity === 'error' ? '✗' : '!'} ${escapeMarkdown(f.line)}`));
  }
  if (report.unused.length > 0) lines.push('', `**${UNUSED_HEADING}** (${report.unused.length})`, '', ...report.unused.map((e) => `- ${code(`${e.method} ${e.path}`)}`));
  return lines.join('\n');
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_{}[\]<>#|])/g, '\\$1');
}

/** What a connected connection says while its participant's description is still being read and checked. */
export const CHECKING_LINE = "Compatibility: checking against the participant's own API description (GET /docs/openapi)… Until then the version table decides what is sent.";

/** The title of the command that opens a connection's whole report. */
export const SHOW_REPORT_TITLE = 'Show Compatibility Report';
/** Its button beside a refused request's message (a notification shows only short labels whole). */
export const SHOW_REPORT_BUTTON = 'Show Report';

/** At most this many findings in a short form; the rest are counted. */
const SHORT_FINDINGS = 5;

/**
 * The short form of a report (a tooltip): the summary, then the lines of what is refused (the
 * errors first), at most a few, the rest counted. The whole report is {@link reportMarkdown}.
 */
export function reportSummaryMarkdown(report: CompatibilityReport): string {
  const findings = report.operations.flatMap((o) => o.findings).sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const lines = [`Compatibility: ${escapeMarkdown(report.summary)}`];
  if (report.versionNotice) lines.push('', escapeMarkdown(report.versionNotice));
  if (findings.length > 0) {
    lines.push('', ...findings.slice(0, SHORT_FINDINGS).map((f) => `- ${f.severity === 'error' ? '✗' : '!'} ${escapeMarkdown(f.line)}`));
    if (findings.length > SHORT_FINDINGS) lines.push(`- and ${findings.length - SHORT_FINDINGS} more`);
  }
  return lines.join('\n');
}

/** The report as a document of its own: which participant, the report, and how it was made and can be made again. */
export function reportDocumentMarkdown(report: CompatibilityReport, participant: { name: string; url: string }): string {
  return [
    `# Compatibility of ${escapeMarkdown(participant.name)}`,
    '',
    `${escapeMarkdown(participant.url)}`,
    '',
    reportMarkdown(report),
    '',
    '---',
    '',
    `${escapeMarkdown(
      "Made at connect from the participant's own API description (GET /docs/openapi), once per participant and version: every request the extension and the CLI send, and every answer field they read, checked against it. A request it says would be refused is not sent. The same report in a terminal:",
    )} \`canton-ledger doctor\`.`,
  ].join('\n');
}
