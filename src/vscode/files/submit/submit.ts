import vscode = require('vscode');
import { paidTrafficCostInline } from '../../../core/trafficCost';
import { randomUUID } from 'node:crypto';
import type { LedgerConnection } from '../../../core/ledger/connection';
import { CancelledError, CantonApiError, LedgerError } from '../../../core/errors';
import type { Logger } from '../../../core/log';
import type { Transaction } from '../../../core/models/updates';
import type * as wire from '../../../core/models/wire';
import type { Redactor } from '../../../core/redact';
import type { SubmissionRecord } from '../../../core/submit/history';
import { emptyTransactionExplanation, findTransactionByCommandId, touchedContracts, transactionSummary } from '../../../core/submit/outcome';
import { leavesOutEffects, lookUpSubmission, submissionOf, submit, submittingParties, type CommandsFileValue, type SubmissionOutcome } from '../../../core/submit/submission';
import { shortId } from '../../../core/text';
import { Commands } from '../../kit/ids';
import type { ConnectionTargets } from '../../kit/registry';
import type { ConnectionManager } from '../../connections/manager';
import type { JsonDocuments } from '../../kit/documents';
import { SHOW_LOG, summary, type ErrorReporter, type Prompts } from '../../kit/prompts';
import { failureToKeep } from '../../../core/submit/failedCommands';
import type { CauseDiagnostics } from './causeDiagnostics';
import type { SubmissionHistory } from './history';
import { useNewCommandId } from './commandId';
import { checkedSourceAndTarget, fileName, submissionColumn } from './sourceFile';

export interface SendDeps {
  connections: ConnectionManager;
  documents: JsonDocuments;
  logger: Logger;
  redactor: Redactor;
  errors: ErrorReporter;
  /** Finds the connection a file is sent to. */
  targets: ConnectionTargets;
}

/** The buttons, as the user reads them (tests answer with the same strings). */
export const SubmitActions = {
  openResult: 'Open Result',
  showContractEvents: 'Show Contract Events',
  revealInUpdates: 'Reveal in Updates',
  showLedgerEffects: 'Show Ledger Effects',
  retrySameCommandId: 'Retry Same ID',
  lookItUp: 'Look it up',
  showLog: SHOW_LOG,
  submitAgain: 'Submit Again',
  newCommandIdAndSubmit: 'New ID and Submit',
} as const;

/** What a submit command did, with what the user chose next (for the tests and for chaining). */
export interface SubmitOutcome {
  /** Absent when nothing was sent. */
  record?: SubmissionRecord;
  resultUri?: vscode.Uri;
  /** The button chosen on the message that followed. */
  action?: string;
  /** What that action did. */
  next?: SubmitOutcome;
}

/**
 * Submitting `*.commands.json` files: progress and cancel, the result document and summary, and the
 * safe handling of unknown outcomes (retry with the same request, or look the commandId up).
 */
export class SubmitController {
  /** Asked before a file is submitted (the pre-flight, when its setting asks): false keeps it from being sent. */
  beforeSubmit?: (uri: vscode.Uri, text: string, connection: LedgerConnection) => Promise<boolean>;

  constructor(
    private readonly deps: SendDeps,
    private readonly history: SubmissionHistory,
    private readonly prompts: () => Prompts,
    private readonly showLog: () => void,
    /** Where a rejection's cause is marked in its file, and its explanation (none in tests that do not look). */
    private readonly failures?: { causes: CauseDiagnostics; explain(record: SubmissionRecord): Promise<unknown> },
  ) {}

  /** Submits the file's current text (also unsaved) to the active connection. */
  async submitFile(arg?: unknown): Promise<SubmitOutcome> {
    const prompts = this.prompts();
    const entry = await checkedSourceAndTarget(this.deps, arg, 'commands', prompts, 'was not submitted', 'submit to');
    if (!entry) return {};
    const { source, connection } = entry;
    let request: wire.JsSubmitAndWaitForTransactionRequest;
    try {
      request = submissionOf(source.value as CommandsFileValue).request;
    } catch (e) {
      await prompts.message('error', `${fileName(source.uri)} was not submitted: ${summary(e)}`, []);
      return {};
    }
    if (this.beforeSubmit && !(await this.beforeSubmit(source.uri, source.text, connection))) return {};
    const record: SubmissionRecord = {
      id: randomUUID(),
      fileUri: source.uri.toString(),
      fileName: fileName(source.uri),
      time: new Date().toISOString(),
      connectionId: connection.id,
      connectionName: connection.profile.name,
      commandId: request.commands.commandId,
      outcome: 'unknown',
      attempts: 0,
      request,
    };
    return this.send(record, connection);
  }

  /** Submits the record's file again, as it reads now (asks first: it is a new submission). */
  async resubmit(record: SubmissionRecord): Promise<SubmitOutcome> {
    const choice = await this.prompts().message(
      'warning',
      `Submit ${record.fileName} again?`,
      [SubmitActions.submitAgain],
      { modal: true, detail: 'Its current text is sent to the active connection. With an unchanged commandId the participant does not execute it again (deduplication: already executed); change the commandId to run the commands once more.' },
    );
    if (choice !== SubmitActions.submitAgain) return { action: choice };
    return this.submitFile(vscode.Uri.parse(record.fileUri));
  }

  /** Sends the record's exact request again: with the same commandId, deduplication keeps it at most once. */
  async retry(record: SubmissionRecord): Promise<SubmitOutcome> {
    const connection = await this.connectionOf(record);
    return connection ? this.send({ ...record, time: new Date().toISOString() }, connection) : {};
  }

  /** Searches the updates since the first attempt for the record's commandId. */
  async lookUp(record: SubmissionRecord): Promise<SubmitOutcome> {
    const prompts = this.prompts();
    const connection = await this.connectionOf(record);
    if (!connection) return {};
    const client = connection.client;
    let found;
    try {
      found = await this.prompts().progress(`Looking up commandId ${record.commandId} on ${connection.profile.name}`, (signal) =>
        lookUpSubmission(client, record.request, { fromOffset: record.lookUpFrom ?? 0, signal }),
      );
    } catch (e) {
      return { record, action: await this.reportFailure(`Looking up commandId ${record.commandId}`, e) };
    }
    if (!found.transaction) {
      const action = await prompts.message(
        'warning',
        `No transaction with commandId "${record.commandId}" between offsets ${found.fromOffset} and ${found.toOffset}: it has not executed (so far). Retrying with the same commandId is safe.`,
        [SubmitActions.retrySameCommandId],
      );
      return { record, action, next: action === SubmitActions.retrySameCommandId ? await this.retry(record) : undefined };
    }
    const t = found.transaction;
    const updated: SubmissionRecord = { ...record, outcome: record.outcome === 'duplicate' ? 'duplicate' : 'succeeded', errorCode: record.outcome === 'duplicate' ? record.errorCode : undefined, updateId: t.updateId, offset: t.offset, transaction: t.raw };
    await this.history.put(updated);
    return this.showTransaction(updated, t, `Found commandId "${record.commandId}" (executed once): ${transactionSummary(t, true)}`);
  }

  /** Re-opens the result document kept with a record. */
  async openResult(record: SubmissionRecord): Promise<vscode.Uri | undefined> {
    if (!record.transaction) {
      await this.prompts().message('info', `No result is kept for ${record.fileName} (${record.commandId}): only successful submissions have one, and very large ones are not kept.`, []);
      return undefined;
    }
    const editor = await this.deps.documents.show('submissions', resultName(record), record.transaction, { preview: true, viewColumn: submissionColumn() });
    return editor.document.uri;
  }

  /** The connection a kept record was sent to (its id comes from storage: looked up here, once). */
  private async connectionOf(record: SubmissionRecord): Promise<LedgerConnection | undefined> {
    const connection = this.deps.connections.connection(record.connectionId);
    if (!connection) await this.prompts().message('error', `The connection "${record.connectionName}" of this submission no longer exists.`, []);
    return connection;
  }

  private async send(record: SubmissionRecord, connection: LedgerConnection): Promise<SubmitOutcome> {
    const fileUri = vscode.Uri.parse(record.fileUri);
    // A new attempt: the cause marked after the last one no longer stands.
    this.failures?.causes.clear(fileUri);
    const ledger = connection.ledger;
    // Through the connection: its ledger state follows the write (whatever the answer: the ledger may have moved).
    const outcome = await this.prompts().progress(`Submitting ${record.fileName} to ${connection.profile.name}`, (signal) =>
      connection.write(
        'transaction',
        (client, s) =>
          submit(client, record.request, {
            signal: s,
            retryOf: record.lookUpFrom === undefined ? undefined : { lookUpFrom: record.lookUpFrom },
            ledgerEnd: ledger ? (r) => ledger.refreshLedgerEnd(r) : undefined,
          }),
        { signal, offsetOf: (o) => (o.kind === 'succeeded' ? o.write.offset : undefined) },
      ),
    );
    if (outcome.kind === 'not-sent') {
      if (outcome.error instanceof CancelledError) return {};
      return { action: await this.reportFailure(`${record.fileName} was not submitted`, outcome.error) };
    }
    const sent: SubmissionRecord = { ...record, lookUpFrom: outcome.lookUpFrom, attempts: record.attempts + 1 };
    switch (outcome.kind) {
      case 'succeeded':
        return this.succeeded(sent, outcome);
      case 'unknown':
        return this.unknown(sent, outcome.error);
      case 'already-executed':
        return this.duplicate(sent, outcome);
      case 'failed': {
        const e = outcome.error;
        const failure = failureToKeep(e);
        const failed: SubmissionRecord = { ...sent, outcome: 'failed', errorCode: e instanceof CantonApiError ? e.code : e.kind, failure };
        await this.history.put(failed);
        if (failure) await this.markCause(fileUri, failure);
        const explain = failure && this.failures ? () => this.failures?.explain(failed) : undefined;
        return { record: failed, action: await this.deps.errors.report(`Submitting ${record.fileName} failed`, e, { explain }) };
      }
    }
  }

  private async succeeded(record: SubmissionRecord, outcome: Extract<SubmissionOutcome, { kind: 'succeeded' }>): Promise<SubmitOutcome> {
    const t = outcome.transaction;
    const done: SubmissionRecord = { ...record, outcome: 'succeeded', errorCode: undefined, updateId: t.updateId, offset: t.offset, transaction: outcome.response.transaction };
    await this.history.put(done);
    const cost = paidTrafficCostInline(t.paidTrafficCost);
    return this.showTransaction(done, t, `${t.events.length > 0 ? transactionSummary(t, true) : emptyTransactionExplanation(t)}${cost ? ` (${cost})` : ''}`);
  }

  /**
   * Opens the result document (it stays open: no "Open Result" on the summary) and the summary with its
   * actions; `further` is one more action of the caller's.
   */
  private async showTransaction(record: SubmissionRecord, t: Transaction, message: string, further?: FurtherAction): Promise<SubmitOutcome> {
    const editor = await this.deps.documents.show('submissions', resultName(record), t.raw, { preview: true, viewColumn: submissionColumn(), preserveFocus: true });
    const resultUri = editor.document.uri;
    // The file chose a shape without the exercise (ACS delta): say what is missing and offer it.
    const partial = leavesOutEffects(record.request.transactionFormat);
    const note = partial ? ' (ACS delta, as the file asks: the exercise and contracts created and archived within it are left out)' : '';
    const actions = [...(further ? [further.action] : []), ...(partial ? [SubmitActions.showLedgerEffects] : []), ...(t.events.length > 0 ? [SubmitActions.showContractEvents] : []), SubmitActions.revealInUpdates];
    const action = await this.prompts().message('info', `${message}${note}`, actions);
    let next: SubmitOutcome | undefined;
    if (further && action === further.action) next = await further.run();
    else if (action === SubmitActions.showLedgerEffects) next = await this.showLedgerEffects(record, t);
    else if (action === SubmitActions.showContractEvents) await this.showContractEvents(t);
    else if (action === SubmitActions.revealInUpdates) await this.runViewCommand(Commands.revealUpdate, { connectionId: record.connectionId, offset: t.offset, updateId: t.updateId });
    return { record, resultUri, action, next };
  }

  /** Reads the record's transaction again in the ledger-effects shape (as its submitting parties) and opens it. */
  private async showLedgerEffects(record: SubmissionRecord, t: Transaction): Promise<SubmitOutcome> {
    const connection = await this.connectionOf(record);
    if (!connection) return {};
    const client = connection.client;
    let found;
    try {
      found = await this.prompts().progress(`Reading ${shortId(t.updateId)} as ledger effects`, (signal) =>
        findTransactionByCommandId(client, { commandId: record.commandId, parties: submittingParties(record.request.commands), fromOffset: t.offset - 1, toOffset: t.offset, signal }),
      );
    } catch (e) {
      return { record, action: await this.reportFailure('Reading the ledger effects', e) };
    }
    if (!found.transaction) {
      await this.prompts().message('warning', `The transaction at offset ${t.offset} could not be read again (pruned, or not visible to the submitting parties).`, []);
      return { record };
    }
    const editor = await this.deps.documents.show('submissions', `${resultName(record)} ledger effects`, found.transaction.raw, { preview: false, viewColumn: submissionColumn() });
    return { record, resultUri: editor.document.uri };
  }

  private async showContractEvents(t: Transaction): Promise<void> {
    const contracts = touchedContracts(t);
    const chosen =
      contracts.length === 1
        ? contracts[0]
        : (
            await this.prompts().pick(
              contracts.map((c) => ({ label: c.contractId, description: `${c.kinds.join(', ')} · ${c.templateId}`, contract: c })),
              { title: 'Show the events of which contract?' },
            )
          )?.contract;
    if (chosen) await this.runViewCommand(Commands.showContractEvents, chosen.contractId);
  }

  /** The Updates and Contract Events views' commands (registered by the ledger views). */
  private async runViewCommand(command: string, arg: unknown): Promise<void> {
    try {
      await vscode.commands.executeCommand(command, arg);
    } catch (e) {
      await this.reportFailure('Opening the ledger view', e);
    }
  }

  private async unknown(record: SubmissionRecord, e: unknown): Promise<SubmitOutcome> {
    const unknown: SubmissionRecord = { ...record, outcome: 'unknown', errorCode: e instanceof LedgerError ? e.kind : undefined };
    await this.history.put(unknown);
    this.deps.logger.warn(`Submission of ${record.fileName} (commandId ${record.commandId}): outcome unknown: ${this.deps.redactor.redactError(e)}`);
    const why = e instanceof CancelledError ? 'cancelled after sending' : e instanceof LedgerError ? e.message : String(e);
    const action = await this.prompts().message(
      'warning',
      `Outcome unknown: ${record.fileName} (commandId "${record.commandId}") may or may not have executed (${why}). ` +
        'Retrying with the same commandId is safe: deduplication keeps it at most once. Do not submit it under a new commandId.',
      [SubmitActions.retrySameCommandId, SubmitActions.lookItUp],
    );
    const next = action === SubmitActions.retrySameCommandId ? await this.retry(unknown) : action === SubmitActions.lookItUp ? await this.lookUp(unknown) : undefined;
    return { record: unknown, action, next };
  }

  /**
   * DUPLICATE_COMMAND: the commandId executed before, once — the answer a retry after an unknown
   * outcome waits for. Shows the transaction it executed as, when the core could read it. A first
   * attempt is offered to run under a new commandId; a retry is not (it was meant to run at most once).
   */
  private async duplicate(record: SubmissionRecord, outcome: Extract<SubmissionOutcome, { kind: 'already-executed' }>): Promise<SubmitOutcome> {
    const duplicate: SubmissionRecord = { ...record, outcome: 'duplicate', errorCode: outcome.error.code, lookUpFrom: outcome.lookUp.fromOffset };
    await this.history.put(duplicate);
    const at = outcome.completionOffset ? ` (completed at offset ${outcome.completionOffset})` : '';
    const executed = `Already executed: commandId "${record.commandId}" was accepted before${at} and was not executed again.`;
    const readError = outcome.lookUpError;
    if (readError && !(readError instanceof CancelledError)) this.deps.logger.warn(`Reading the transaction of commandId ${record.commandId}: ${this.deps.redactor.redactError(readError)}`);
    const firstAttempt = record.attempts === 1;
    const newCommandId: FurtherAction | undefined = firstAttempt ? { action: SubmitActions.newCommandIdAndSubmit, run: () => this.submitWithNewCommandId(duplicate) } : undefined;
    const t = outcome.transaction;
    if (t) {
      const shown: SubmissionRecord = { ...duplicate, updateId: t.updateId, offset: t.offset, transaction: t.raw };
      await this.history.put(shown);
      return this.showTransaction(shown, t, `${executed} ${transactionSummary(t, true)}`, newCommandId);
    }
    // Not readable now (pruned, not visible to the actAs parties, or the read failed): offer the search.
    const rerun = firstAttempt ? ' To run the commands once more, submit them under a new commandId.' : '';
    const action = await this.prompts().message('info', `${executed}${rerun}`, [...(newCommandId ? [newCommandId.action] : []), SubmitActions.lookItUp]);
    const next = action === SubmitActions.lookItUp ? await this.lookUp(duplicate) : newCommandId && action === newCommandId.action ? await newCommandId.run() : undefined;
    return { record: duplicate, action, next };
  }

  /** Gives the record's file a fresh commandId (one edit of the id alone) and submits it: a new submission. */
  async submitWithNewCommandId(record: SubmissionRecord): Promise<SubmitOutcome> {
    const uri = vscode.Uri.parse(record.fileUri);
    let commandId: string | undefined;
    try {
      commandId = await useNewCommandId(uri);
    } catch (e) {
      return { action: await this.reportFailure(`${record.fileName}: the commandId could not be changed`, e) };
    }
    if (!commandId) {
      await this.prompts().message('error', `${record.fileName} has no "commandId" to replace: add one (the file's quick fix does) and submit again.`, []);
      return {};
    }
    this.deps.logger.info(`${record.fileName}: new commandId ${commandId} (was ${record.commandId})`);
    return this.submitFile(uri);
  }

  /**
   * A refusal of something sent from the file other than a submit (a preview): the mark of an earlier
   * attempt goes, and a Canton rejection marks its cause.
   */
  async markRejection(uri: vscode.Uri, e: unknown): Promise<void> {
    this.failures?.causes.clear(uri);
    const failure = failureToKeep(e);
    if (failure) await this.markCause(uri, failure);
  }

  /** Marks the cause in the file (a file that cannot be read is only logged: the message says the rest). */
  private async markCause(uri: vscode.Uri, failure: NonNullable<SubmissionRecord['failure']>): Promise<void> {
    try {
      await this.failures?.causes.mark(uri, failure);
    } catch (e) {
      this.deps.logger.warn(`Marking the cause of ${failure.code ?? 'the rejection'} in ${uri.toString()}: ${this.deps.redactor.redactError(e)}`);
    }
  }

  private reportFailure(context: string, e: unknown): Promise<string | undefined> {
    return this.deps.errors.report(context, e);
  }
}

/** One more button on a message, and what it does. */
interface FurtherAction {
  action: (typeof SubmitActions)[keyof typeof SubmitActions];
  run(): Promise<SubmitOutcome>;
}

/** The result tab's name: the file and the commandId. */
function resultName(record: SubmissionRecord): string {
  return `${record.fileName.replace(/\.commands\.json$/i, '')} ${record.commandId}`;
}
