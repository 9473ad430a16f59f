import * as vscode from 'vscode';
import * as path from 'node:path';
import { CancelledError, LedgerError } from '../../../core/errors';
import type * as wire from '../../../core/models/wire';
import type { PreparedPreview } from '../../../core/preview/model';
import { previewDocument, previewSummary } from '../../../core/preview/render';
import { previewFailureAdvice } from '../../../core/submit/prepare';
import { toSubmitRequest } from '../../../core/api/client';
import { Commands } from '../../commands/ids';
import { DOCUMENT_SCHEME } from '../../documents';
import { SHOW_LOG, summary, type Prompts } from '../../prompts';
import { checkedSourceAndTarget, fileName, resultColumn } from './sourceFile';
import type { SendDeps, SubmitController, SubmitOutcome } from './submit';

export const PreviewActions = {
  submitNow: 'Submit now',
  showLog: SHOW_LOG,
} as const;

/** The decoder bundle (dist/preview.js): loaded on the first preview, so activation does not pay for the protobuf code. */
export type PreviewDecoder = (base64: string) => PreparedPreview;

export function bundledPreviewDecoder(extensionPath: string): () => PreviewDecoder {
  let decode: PreviewDecoder | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    decode ??= (require(path.join(extensionPath, 'dist', 'preview.js')) as { decodePreparedTransaction: PreviewDecoder }).decodePreparedTransaction;
    return decode;
  };
}

/** What a preview did (for the tests and for chaining). */
export interface PreviewOutcome {
  /** The read-only preview document. */
  resultUri?: vscode.Uri;
  /** What it shows. */
  document?: Record<string, unknown>;
  preview?: PreparedPreview;
  action?: string;
  /** "Submit now": the submission that followed. */
  next?: SubmitOutcome;
}

/**
 * Previewing `*.commands.json` files: prepare (nothing is submitted), the read-only preview
 * document, and "Submit now" for the same file.
 */
export class PreviewController {
  /** The file each preview document was made from (for the document's "Submit now" lens). */
  private readonly sources = new Map<string, vscode.Uri>();

  constructor(
    private readonly deps: SendDeps,
    private readonly submit: SubmitController,
    private readonly prompts: () => Prompts,
    private readonly showLog: () => void,
    private readonly decoder: () => PreviewDecoder,
  ) {}

  async previewFile(arg?: unknown): Promise<PreviewOutcome> {
    const prompts = this.prompts();
    const entry = await checkedSourceAndTarget(this.deps.targets, arg, 'commands', prompts, 'was not previewed', 'preview on');
    if (!entry) return {};
    const { source, profile } = entry;
    const name = fileName(source.uri);
    const request = toSubmitRequest(source.value as wire.JsCommands);
    const client = this.deps.connections.client(profile);
    let document: Record<string, unknown>;
    let preview: PreparedPreview;
    try {
      ({ document, preview } = await prompts.progress(`Previewing ${name} on ${profile.name}`, async (signal) => {
        const { raw } = await client.prepare(request, { signal });
        const decoded = this.decoder()(raw.preparedTransaction);
        return { preview: decoded, document: previewDocument({ preview: decoded, raw, participant: profile.name, file: name }) };
      }));
    } catch (e) {
      if (e instanceof CancelledError) return {};
      const advice = previewFailureAdvice(e, request.commands);
      if (!advice) return { action: await this.deps.errors.report(`${name} could not be previewed`, e) };
      this.deps.logger.error(`${name} could not be previewed: ${this.deps.redactor.redactError(e)}${e instanceof LedgerError ? `\n  hint: ${e.hint}` : ''}`);
      const action = await prompts.message('error', this.deps.redactor.redact(`${name} could not be previewed: ${advice.why}. To do: ${advice.todo}. (${summary(e)})`), [PreviewActions.showLog]);
      if (action === PreviewActions.showLog) this.showLog();
      return { action };
    }
    const editor = await this.deps.documents.show('previews', `${name.replace(/\.commands\.json$/i, '')} preview ${request.commands.commandId}`, document, {
      preview: true,
      viewColumn: resultColumn(),
      preserveFocus: true,
    });
    const resultUri = editor.document.uri;
    this.sources.set(resultUri.toString(), source.uri);
    const action = await prompts.message('info', `Preview of ${name} (nothing submitted): ${previewSummary(preview)}. The ledger may change before you submit.`, [PreviewActions.submitNow]);
    const next = action === PreviewActions.submitNow ? await this.submit.submitFile(source.uri) : undefined;
    return { resultUri, document, preview, action, next };
  }

  /** "Submit now" from a preview document: submits the file it was made from. */
  async submitPreviewed(arg?: unknown): Promise<SubmitOutcome> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    const file = uri && this.sources.get(uri.toString());
    if (!file) {
      await this.prompts().message('error', 'This is not a preview document of this session: preview the commands file again.', []);
      return {};
    }
    return this.submit.submitFile(file);
  }

  /** Whether a document is a preview with a known source file. */
  sourceOf(uri: vscode.Uri): vscode.Uri | undefined {
    return this.sources.get(uri.toString());
  }
}

/** "Submit now" at the top of a preview document. */
export class PreviewCodeLensProvider implements vscode.CodeLensProvider {
  constructor(private readonly previews: PreviewController) {}

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (document.uri.scheme !== DOCUMENT_SCHEME || !this.previews.sourceOf(document.uri)) return [];
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: '$(play) Submit now (same file, same commandId)', command: Commands.submitPreviewed, arguments: [document.uri] })];
  }
}
