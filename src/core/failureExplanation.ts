/**
 * The document that explains a failed command, for a row of Failed Commands and for the editor's own
 * submit: the failure's meaning and hint (`cantonFailure.ts`) with where its cause is and the contracts
 * it names (`errorCauses.ts`). Apart from both so that neither imports the other.
 */
import { CATEGORY_MEANING, categoryText, failureHint, type CantonFailure } from './cantonFailure';
import { causeContractIds } from './errorCauses';

export interface FailedCommandFacts {
  commandId?: string;
  submissionId?: string;
  userId?: string;
  actAs?: readonly string[];
  offset?: number;
  recordTime?: string;
  /** `file.commands.json:12:23` and what is marked there, when the cause was found in a file. */
  causeAt?: { place: string; what: string; match: 'value' | 'field' | 'command' };
}

/**
 * The document that explains a failed command: the same for a row of Failed Commands and for the
 * editor's own submit. Markdown: what the code means, what to do, where the cause is, what the
 * participant said (the metadata and resources laid out).
 */
export function explainFailure(f: CantonFailure, facts: FailedCommandFacts = {}): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines: string[] = [];
  lines.push(`# ${f.code ?? 'Rejected'}${facts.commandId ? ` — command ${cell(facts.commandId)}` : ''}`, '');
  lines.push(`**${cell(f.cause || '(no message)')}**`, '');
  lines.push('## What it means', '');
  const meaning = f.category !== undefined ? CATEGORY_MEANING[f.category] : undefined;
  lines.push(`Category: ${categoryText(f.category)}${f.grpcCode !== undefined ? `, gRPC status ${f.grpcCode}` : ''}.${meaning ? ` ${meaning}` : ''}`, '');
  lines.push('## What to do', '', failureHint(f), '');
  if (facts.causeAt) {
    const how =
      facts.causeAt.match === 'value'
        ? `the ${facts.causeAt.what} the error names`
        : facts.causeAt.match === 'field'
          ? `${facts.causeAt.what} (the error names no value found in the file)`
          : `${facts.causeAt.what} (nothing the error names is in the file)`;
    lines.push('## Where', '', `${facts.causeAt.place}: ${how}.`, '');
  }
  const contracts = causeContractIds(f);
  if (contracts.length > 0) {
    lines.push(
      '## The contract',
      '',
      `${contracts.map((id) => `\`${id}\``).join(', ')}: its lineage graph and Contract Events open from this command's row in Failed Commands (expand it), or with **Show Contract Lineage** and **Show Contract Events…** and the id.`,
      '',
    );
  }
  const command: Array<[string, string]> = [];
  if (facts.commandId) command.push(['Command id', facts.commandId]);
  if (facts.submissionId) command.push(['Submission id', facts.submissionId]);
  if (facts.userId) command.push(['User', facts.userId]);
  if (facts.actAs?.length) command.push(['Act as', facts.actAs.join(', ')]);
  if (facts.offset !== undefined) command.push(['Offset', String(facts.offset)]);
  if (facts.recordTime) command.push(['Record time', facts.recordTime]);
  if (f.correlationId) command.push(['Correlation id', f.correlationId]);
  if (command.length > 0) lines.push('## The command', '', '| | |', '| --- | --- |', ...command.map(([k, v]) => `| ${k} | ${cell(v)} |`), '');
  const metadata = Object.entries(f.metadata);
  if (f.resources.length > 0 || metadata.length > 0) {
    lines.push('## What the participant sent with it', '', '| Key | Value |', '| --- | --- |');
    for (const [k, v] of f.resources) lines.push(`| ${cell(k)} (resource) | ${cell(v)} |`);
    for (const [k, v] of metadata) lines.push(`| ${cell(k)} | ${cell(v)} |`);
    lines.push('');
  }
  return lines.join('\n');
}
