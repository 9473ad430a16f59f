import vscode = require('vscode');
import { decodeCostEstimation, type TrafficCostEstimate } from '../../../core/trafficCost';
import * as path from 'node:path';
import { CancelledError, LedgerError } from '../../../core/errors';
import type { HashVerification } from '../../../core/preview/hash';
import { walkNodes, type PreparedPreview } from '../../../core/preview/model';
import { HASH_MISMATCH_WARNING, hashCheckLine, previewDocument, previewSummary } from '../../../core/preview/render';
import type * as wire from '../../../core/models/wire';
import { outcomeLabel, type SubmissionRecord } from '../../../core/submit/history';
import { previewFailureAdvice } from '../../../core/submit/prepare';
import { prepareRequestOf, type CommandsFileValue } from '../../../core/submit/submission';
import { Commands } from '../../kit/ids';
import { DOCUMENT_SCHEME } from '../../kit/documents';
import { Disposable } from '../../kit/lifecycle';
import { SHOW_LOG, summary, type Prompts } from '../../kit/prompts';
import type { SubmissionHistory } from './history';
import { checkedSourceAndTarget, fileName, previewColumn } from './sourceFile';
import { SubmitActions, type SendDeps, type SubmitController, type SubmitOutcome } from './submit';

export const PreviewActions = {
  submitNow: 'Submit now',
  openResult: SubmitActions.openResult,
  showLog: SHOW_LOG,
} as const;

/** What the preview bundle reads from a prepare answer: the transaction and the verdict on its hash. */
export type PreviewReader = (raw: wire.JsPrepareSubmissionResponse) => { preview: PreparedPreview; hash: HashVerification };

/** The preview bundle (dist/preview.js): loaded on the first preview, so activation does not pay for the protobuf code. */
export function bundledPreviewReader(extensionPath: string): () => PreviewReader {
  let read: PreviewReader | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    read ??= (require(path.join(extensionPath, 'dist', 'preview.js')) as { readPreparedAnswer: PreviewReader }).readPreparedAnswer;
    return read;
  };
}

/** What a preview did (for the tests and for chaining). */
export interface PreviewOutcome {
  /** The read-only preview document. */
  resultUri?: vscode.Uri;
  /** What it shows. */
  document?: Record<string, unknown>;
  preview?: PreparedPreview;
  /** The hash recomputed from the transaction, compared with the participant's. */
  hash?: HashVerification;
  action?: string;
  /** "Submit now": the submission that followed. */
  next?: SubmitOutcome;
}

/** One preview document: where it came from, what it shows, and the submission of its commands that followed. */
interface ShownPreview {
  source: vscode.Uri;
  commandId: string;
  /** ISO time it was prepared: a submission recorded since then is this preview's. */
  preparedAt: string;
  /** The document's name (its URI): showing it again under this name updates it in place. */
  name: string;
  document: Record<string, unknown>;
  /** The decoded transaction: what Show Graph draws. */
  preview: PreparedPreview;
  /** The participant's traffic cost estimate (3.4+): the graph's header, and beside the paid cost after Compare with Committed. */
  costEstimate?: TrafficCostEstimate;
  hash: HashVerification;
  submitted?: SubmissionRecord;
}

/**
 * Previewing `*.commands.json` files: prepare (nothing is submitted), the read-only preview
 * document with the verdict on its hash, and "Submit now" for the same file — once: a preview whose
 * commands were submitted since (from it or from the file) says so and opens the result instead of
 * submitting again.
 */
export class PreviewController extends Disposable {
  private readonly previews = new Map<string, ShownPreview>();
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('canton-ledger-preview'));
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** A preview was shown or submitted (its lenses change). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly deps: SendDeps,
    private readonly submit: SubmitController,
    private readonly prompts: () => Prompts,
    private readonly showLog: () => void,
    private readonly reader: () => PreviewReader,
    private readonly history: SubmissionHistory,
  ) {
    super();
    // The history records a submission as soon as its outcome is known, before the user answers its message.
    this._register(history.onDidChange(() => this.followSubmissions()));
  }

  async previewFile(arg?: unknown): Promise<PreviewOutcome> {
    const prompts = this.prompts();
    const entry = await checkedSourceAndTarget(this.deps, arg, 'commands', prompts, 'was not previewed', 'preview on');
    if (!entry) return {};
    const { source, connection } = entry;
    const { profile, client } = connection;
    const name = fileName(source.uri);
    let request;
    try {
      request = prepareRequestOf(source.value as CommandsFileValue);
    } catch (e) {
      await prompts.message('error', `${name} was not previewed: ${summary(e)}`, []);
      return {};
    }
    const preparedAt = new Date().toISOString();
    let document: Record<string, unknown>;
    let preview: PreparedPreview;
    let hash: HashVerification;
    let costEstimate: TrafficCostEstimate | undefined;
    try {
      ({ document, preview, hash, costEstimate } = await prompts.progress(`Previewing ${name} on ${profile.name}`, async (signal) => {
        const { raw } = await client.prepare(request, { signal });
        const read = this.reader()(raw);
        return { ...read, costEstimate: decodeCostEstimation(raw.costEstimation), document: previewDocument({ ...read, raw, participant: profile.name, file: name }) };
      }));
    } catch (e) {
      if (e instanceof CancelledError) return {};
      await this.submit.markRejection(source.uri, e);
      const advice = previewFailureAdvice(e, request);
      if (!advice) return { action: await this.deps.errors.report(`${name} could not be previewed`, e) };
      this.deps.logger.error(`${name} could not be previewed: ${this.deps.redactor.redactError(e)}${e instanceof LedgerError ? `\n  hint: ${e.hint}` : ''}`);
      const action = await prompts.message('error', this.deps.redactor.redact(`${name} could not be previewed: ${advice.why}. To do: ${advice.todo}. (${summary(e)})`), [PreviewActions.showLog]);
      if (action === PreviewActions.showLog) this.showLog();
      return { action };
    }
    const shown: ShownPreview = { source: source.uri, commandId: request.commandId, preparedAt, name: `${name.replace(/\.commands\.json$/i, '')} preview ${request.commandId}`, document, preview, costEstimate, hash };
    // A pinned tab: the result of "Submit now" opens beside it in the same column and does not replace it.
    const editor = await this.deps.documents.show('previews', shown.name, document, { preview: false, viewColumn: previewColumn(), preserveFocus: true });
    const resultUri = editor.document.uri;
    this.previews.set(resultUri.toString(), shown);
    this.showHashDiagnostics(resultUri, document, hash);
    this.changed.fire();
    if (hash.kind === 'mismatch') {
      this.deps.logger.error(`Preview of ${name}: ${hashCheckLine(hash)}`);
      const action = await prompts.message('error', `Preview of ${name}: ${HASH_MISMATCH_WARNING} (${hash.scheme}; nothing submitted)`, []);
      return { resultUri, document, preview, hash, action };
    }
    const verdict = hash.kind === 'verified' ? `Hash verified (${hash.scheme}).` : `Hash not verified (${hash.scheme}).`;
    const action = await prompts.message('info', `Preview of ${name} (nothing submitted): ${previewSummary(preview)}. The ledger may change before you submit. ${verdict}`, [PreviewActions.submitNow]);
    const next = action === PreviewActions.submitNow ? await this.submitFrom(resultUri) : undefined;
    return { resultUri, document, preview, hash, action, next };
  }

  /** "Submit now" from a preview document: submits the file it was made from, unless this preview was submitted already. */
  async submitPreviewed(arg?: unknown): Promise<SubmitOutcome> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || !this.previews.has(uri.toString())) {
      await this.prompts().message('error', 'This is not a preview document of this session: preview the commands file again.', []);
      return {};
    }
    return this.submitFrom(uri);
  }

  /** Whether a document is a preview with a known source file. */
  sourceOf(uri: vscode.Uri): vscode.Uri | undefined {
    return this.previews.get(uri.toString())?.source;
  }

  /**
   * The informees of the last preview of `source` made with `commandId` (undefined: none), which the
   * pre-flight adds to the file's parties: every host of an informee must have vetted the packages.
   */
  informeesOf(source: vscode.Uri, commandId: string): string[] | undefined {
    const shown = [...this.previews.values()].filter((p) => p.source.toString() === source.toString() && p.commandId === commandId).at(-1);
    return shown && [...new Set([...walkNodes(shown.preview.roots)].flatMap((n) => n.informees))];
  }

  /** The preview shown in a document, for its lenses. */
  previewIn(uri: vscode.Uri): Readonly<Pick<ShownPreview, 'hash' | 'submitted' | 'preview' | 'preparedAt' | 'costEstimate'>> | undefined {
    return this.previews.get(uri.toString());
  }

  private async submitFrom(uri: vscode.Uri): Promise<SubmitOutcome> {
    const shown = this.previews.get(uri.toString())!;
    const done = shown.submitted;
    if (done) {
      const action = await this.prompts().message('info', `This preview was submitted already (commandId ${done.commandId}, ${outcomeLabel(done)}): it is not submitted again.`, [PreviewActions.openResult]);
      const resultUri = action === PreviewActions.openResult ? await this.submit.openResult(done) : undefined;
      return { record: done, action, resultUri };
    }
    return this.submit.submitFile(shown.source);
  }

  /** Marks each preview whose file and commandId were submitted since it was prepared (executed, or found already executed). */
  private followSubmissions(): void {
    const records = this.history.all();
    for (const [key, shown] of this.previews) {
      if (shown.submitted) continue;
      const record = records.find((r) => r.fileUri === shown.source.toString() && r.commandId === shown.commandId && r.time >= shown.preparedAt && (r.outcome === 'succeeded' || r.outcome === 'duplicate'));
      if (!record) continue;
      shown.submitted = record;
      const uri = vscode.Uri.parse(key);
      // The same name: the open document changes in place.
      const updated = { submitted: submittedNote(record), ...shown.document };
      this.deps.documents.put('previews', shown.name, updated);
      this.showHashDiagnostics(uri, updated, shown.hash);
      this.changed.fire();
    }
  }

  /** A hash that does not match is marked in the document as an error (red, and in the Problems view). */
  private showHashDiagnostics(uri: vscode.Uri, shown: Record<string, unknown>, hash: HashVerification): void {
    if (hash.kind !== 'mismatch') {
      this.diagnostics.delete(uri);
      return;
    }
    // The lines as the document writes them (formatted JSON, two spaces).
    const lines = JSON.stringify(shown, null, 2).split('\n');
    const marked = lines.flatMap((line, i) => (/^ {2}"(warning|hashCheck)":/.test(line) ? [i] : []));
    this.diagnostics.set(
      uri,
      marked.map((i) => {
        const d = new vscode.Diagnostic(new vscode.Range(i, 2, i, lines[i].length), hashCheckLine(hash), vscode.DiagnosticSeverity.Error);
        d.source = 'Canton Ledger';
        return d;
      }),
    );
  }
}

function submittedNote(r: SubmissionRecord): string {
  const at = r.offset !== undefined ? ` at offset ${r.offset}` : '';
  return `Submitted since this preview (${outcomeLabel(r)}${r.updateId ? `: update ${r.updateId}` : ''}${at}). Use "Open Result" above; it is not submitted again.`;
}

/**
 * About this many characters of lens titles fit in the half-width column a preview has beside its file
 * or its result (half of a 1400-pixel window beside the side bar, left of the minimap): an icon counts
 * two, the separator between two lenses three.
 */
const HALF_WIDTH_LENS_CHARS = 60;

function lensRowLength(titles: string[]): number {
  return titles.reduce((n, t) => n + t.replace(/\$\([a-z-]+\) ?/g, '').length + (/^\$\(/.test(t) ? 2 : 0), 0) + 3 * (titles.length - 1);
}

/**
 * At the top of a preview document: the verdict on the hash and "Submit now" (or, once submitted, "Open
 * Result"), then "Show Graph" (and, once submitted, "Compare with Committed") — in one row where that
 * fits a half-width column, else the latter on the next line: a row too long runs under the minimap
 * and off the column's edge. One row keeps the preview's first screen for what it would do.
 */
export class PreviewCodeLensProvider implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly previews: PreviewController) {
    this.onDidChangeCodeLenses = previews.onDidChange;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const shown = document.uri.scheme === DOCUMENT_SCHEME ? this.previews.previewIn(document.uri) : undefined;
    if (!shown) return [];
    const { hash } = shown;
    const verdict =
      hash.kind === 'verified'
        ? `$(pass) Hash verified (${hash.scheme})`
        : hash.kind === 'mismatch'
          ? `$(error) Hash does not match (${hash.scheme}): do not sign`
          : `$(question) Hash not verified (${hash.scheme})`;
    // A lens without a command is a label: the verdict itself, with the details in its tooltip.
    const first: vscode.Command[] = [{ title: verdict, tooltip: hashCheckLine(hash), command: '' }];
    if (shown.submitted) first.push({ title: `$(check) Submitted (${outcomeLabel(shown.submitted)}): Open Result`, command: Commands.openSubmissionResult, arguments: [shown.submitted] });
    else first.push({ title: '$(play) Submit now', tooltip: 'Submits the same file with the same commandId', command: Commands.submitPreviewed, arguments: [document.uri] });
    const prepared = { preview: shown.preview, preparedAt: shown.preparedAt, costEstimate: shown.costEstimate };
    const second: vscode.Command[] = [{ title: '$(type-hierarchy) Show Graph', command: Commands.showTransactionGraph, arguments: [{ prepared }] }];
    // Once submitted: what was committed, beside what the preview showed.
    if (shown.submitted?.updateId) second.push({ title: '$(diff) Compare with Committed', command: Commands.comparePreviewWithCommitted, arguments: [{ prepared, updateId: shown.submitted.updateId }] });
    const oneRow = lensRowLength([...first, ...second].map((c) => c.title)) <= HALF_WIDTH_LENS_CHARS;
    const top = new vscode.Range(0, 0, 0, 0);
    const next = oneRow ? top : new vscode.Range(1, 0, 1, 0);
    return [...first.map((c) => new vscode.CodeLens(top, c)), ...second.map((c) => new vscode.CodeLens(next, c))];
  }
}
