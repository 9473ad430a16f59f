/**
 * Failed commands from every source, as one list: the participant's completions (the user's
 * commands, or every user's where the release has `/command-completions` and the user may read as
 * any party) and this window's own submissions, whose failures Canton answers to the submitter only
 * (a command refused while it is interpreted has no completion). Plus finding the file a command id
 * was sent from, over a list of candidate files (commands files today; other file kinds plug in).
 */
import { failureFromError, failureFromStatus, type CantonFailure } from '../cantonFailure';
import { causeContractIds } from '../errorCauses';
import { CantonApiError, LedgerError } from '../errors';
import { commandIdSite } from '../files/commandId';
import type { ParticipantInfo } from '../ledger/connection';
import type { Completion, CompletionsSelection } from '../models/completions';
import type { LedgerRow } from '../rows';
import { code, md, shortId, shortTime } from '../text';
import type { SubmissionRecord } from './history';

export interface FailedCommand {
  /** Unique in the list: the offset of a completion, the record id of a submission. */
  key: string;
  source: 'participant' | 'this window';
  commandId: string;
  submissionId?: string;
  userId?: string;
  actAs: readonly string[];
  offset?: number;
  /** ISO time: the record time of a completion, the time of a submission. */
  time?: string;
  /** Undefined for a command that succeeded. */
  failure?: CantonFailure;
  /** The file a submission of this window was sent from. */
  fileUri?: string;
}

export function failedCommandOfCompletion(c: Completion): FailedCommand {
  return {
    key: `completion:${c.offset}`,
    source: 'participant',
    commandId: c.commandId,
    submissionId: c.submissionId,
    userId: c.userId,
    actAs: c.actAs,
    offset: c.offset,
    time: c.recordTime,
    failure: failureFromStatus(c.raw.status),
  };
}

/** A failed submission of this window, with the failure the participant answered (undefined for others). */
export function failedCommandOfRecord(r: SubmissionRecord): FailedCommand | undefined {
  if (r.outcome !== 'failed' || !r.failure) return undefined;
  return {
    key: `submission:${r.id}`,
    source: 'this window',
    commandId: r.commandId,
    submissionId: r.request.commands.submissionId,
    userId: r.request.commands.userId,
    actAs: r.request.commands.actAs ?? [],
    time: r.time,
    failure: r.failure,
    fileUri: r.fileUri,
  };
}

/** The failure to keep with a record of a failed submission: a Canton answer, or nothing to explain. */
export function failureToKeep(e: unknown): CantonFailure | undefined {
  return e instanceof CantonApiError ? failureFromError(e) : undefined;
}

/** The connection's user may read no completions (there is no user, or it may read as no party): nothing is sent. */
export class CompletionsUnreadableError extends LedgerError {
  // Written out: the production bundles are minified, and a class's own name does not survive that.
  override readonly name = 'CompletionsUnreadableError';
  readonly kind = 'invalid-request' as const;
  constructor(
    readonly reason: 'no-user' | 'no-party',
    readonly userId?: string,
  ) {
    super(reason === 'no-user' ? 'The connection has no user: completions are read per user.' : `The user ${userId} may read as no party: completions are read for parties.`);
  }
  get hint(): string {
    return 'Connect with the token of a user that has a right to act or read as a party (or to read as any party).';
  }
}

/**
 * Whose completions a connection can read: every user's where the release has command-completions
 * and the user may read as any party (or is admin); else the user's own for the parties it may read
 * as. A user that may read nothing: CompletionsUnreadableError.
 */
export function completionsSelectionFor(info: ParticipantInfo, hasCommandCompletions: boolean): CompletionsSelection {
  const rights = info.rights;
  const anyParty = rights?.readAsAnyParty || rights?.participantAdmin;
  if (anyParty && hasCommandCompletions) return { parties: [], allUsers: true };
  const parties = rights ? [...new Set([...rights.actAs, ...rights.readAs])] : info.parties.map((p) => p.party);
  const userId = info.user?.id;
  if (!userId) throw new CompletionsUnreadableError('no-user');
  if (parties.length === 0) throw new CompletionsUnreadableError('no-party', userId);
  return { parties, userId };
}

/** Newest first, each once (a completion and this window's record of the same failure both stay: they say different things). */
export function mergeFailedCommands(lists: ReadonlyArray<readonly FailedCommand[]>, o: { includeSucceeded: boolean; limit?: number }): FailedCommand[] {
  const seen = new Set<string>();
  const all: FailedCommand[] = [];
  for (const list of lists) for (const c of list) if (!seen.has(c.key) && (o.includeSucceeded || c.failure)) (seen.add(c.key), all.push(c));
  // By instant, not by text: ISO times with and without fractions of a second do not sort as strings.
  const instant = (c: FailedCommand) => (c.time ? Date.parse(c.time) : NaN) || 0;
  return all.sort((a, b) => instant(b) - instant(a) || (b.offset ?? 0) - (a.offset ?? 0)).slice(0, o.limit);
}

/**
 * A row of the Failed Commands view: the code and what failed first (a narrow pane cuts the end of a
 * row, and command ids are long); where it came from and the command id after; the details.
 */
export function failedCommandRow(c: FailedCommand): LedgerRow {
  const status = c.failure ? (c.failure.code ?? `gRPC ${c.failure.grpcCode ?? '?'}`) : 'succeeded';
  const cause = c.failure?.cause.replace(/\s+/g, ' ').trim();
  const where = c.offset !== undefined ? `offset ${c.offset}` : c.source;
  const tooltip = [
    `**${md(status)}** ${c.failure ? md(c.failure.cause) : ''}`,
    '',
    `Command id ${code(c.commandId)}${c.submissionId ? ` · submission ${code(c.submissionId)}` : ''}`,
    c.userId ? `User ${code(c.userId)}` : '',
    c.actAs.length ? `Act as ${c.actAs.map((p) => code(shortId(p, 24, 6))).join(', ')}` : '',
    `${c.source === 'participant' ? 'From the participant\'s completions' : 'Sent from this window'}${c.time ? ` at ${shortTime(c.time)}` : ''}`,
  ].filter((l, i) => l !== '' || i === 1);
  return {
    key: c.key,
    kind: c.failure ? 'failedCommand.failed' : 'failedCommand.succeeded',
    label: cause ? `${status}: ${cause.length > 80 ? `${cause.slice(0, 79)}…` : cause}` : status,
    description: `${where} · ${c.commandId || '(no command id)'}`,
    tooltip: tooltip.join('\n\n'),
    icon: c.failure ? 'error' : 'pass',
    offset: c.offset,
    ...causeLinks(c),
  };
}

/** Under a failure whose cause is a contract: rows that open its lineage and its Contract Events. */
function causeLinks(c: FailedCommand): Pick<LedgerRow, 'children'> {
  const ids = c.failure ? causeContractIds(c.failure) : [];
  if (ids.length === 0) return {};
  return {
    children: () =>
      ids.flatMap((contractId): LedgerRow[] => [
        { key: `lineage/${contractId}`, kind: 'failedCommand.lineage', label: 'Contract Lineage', description: `of the cause, ${shortId(contractId, 16, 6)}`, icon: 'git-commit', contractId, tooltip: `Where contract ${code(contractId)} came from and what became of it (the lineage graph)` },
        { key: `events/${contractId}`, kind: 'failedCommand.events', label: 'Contract Events', description: `of the cause, ${shortId(contractId, 16, 6)}`, icon: 'list-tree', contractId, tooltip: `The create and archive of ${code(contractId)}, as the participant has them` },
      ]),
  };
}

/** A file that may carry a command: its URI and its text. */
export interface CandidateFile {
  uri: string;
  text: string;
}

/** The first candidate whose command id is `commandId` (a commands file's, today), with where the id is written. */
export function findCommandSource(commandId: string, candidates: Iterable<CandidateFile>): { uri: string; offset: number; length: number } | undefined {
  for (const c of candidates) {
    if (!c.text.includes(commandId)) continue;
    const site = commandIdSite(c.text);
    if (site?.commandId === commandId) return { uri: c.uri, offset: site.offset, length: site.length };
  }
  return undefined;
}
