/** Sending files to the participant: submitting commands, vetting changes, and the Submissions history. */
import * as vscode from 'vscode';
import type { SubmissionRecord } from '../../../core/submit/history';
import { DOCUMENT_SCHEME } from '../../documents';
import { SendCodeLensProvider } from './codeLens';
import { SubmissionHistory, SubmissionsTreeProvider } from './history';
import { SendCommands, SUBMISSIONS_VIEW } from './ids';
import { windowPrompts, type SendPrompts } from './prompts';
import { bundledPreviewDecoder, PreviewCodeLensProvider, PreviewController } from './preview';
import { SubmitController, type SendDeps } from './submit';
import { MarkdownReports } from './textDocuments';
import { VettingController } from './vetting';
import { DarUploadController, type DarUploadRequest } from './darUpload';

export { SendCommands } from './ids';
export type { SendDeps } from './submit';

/** The handles the end-to-end tests use; `prompts` can be replaced to answer questions. */
export interface FileSending {
  submit: SubmitController;
  preview: PreviewController;
  vetting: VettingController;
  darUpload: DarUploadController;
  history: SubmissionHistory;
  prompts: SendPrompts;
  /** The vetting and DAR upload reports shown as read-only Markdown documents. */
  reports: MarkdownReports;
}

export function registerFileSending(context: vscode.ExtensionContext, deps: SendDeps & { showLog: () => void }): FileSending {
  const history = new SubmissionHistory(context.workspaceState);
  const reports = new MarkdownReports();
  let current: SendPrompts = windowPrompts;
  const prompts = () => current;
  const submit = new SubmitController(deps, history, prompts, deps.showLog);
  const sending: FileSending = {
    submit,
    preview: new PreviewController(deps, submit, prompts, deps.showLog, bundledPreviewDecoder(context.extensionPath)),
    vetting: new VettingController(deps, reports, prompts, deps.showLog),
    darUpload: new DarUploadController(deps, reports, prompts, deps.showLog),
    history,
    reports,
    get prompts() {
      return current;
    },
    set prompts(p: SendPrompts) {
      current = p;
    },
  };
  const tree = new SubmissionsTreeProvider(history);
  const files = [{ pattern: '**/*.commands.json' }, { pattern: '**/*.vetting.json' }];
  const record = (r: SubmissionRecord | undefined) => (r ? history.get(r.id) ?? r : undefined);

  const codeLenses = new SendCodeLensProvider(deps.connections);
  context.subscriptions.push(
    history,
    reports,
    tree,
    vscode.window.createTreeView(SUBMISSIONS_VIEW, { treeDataProvider: tree }),
    codeLenses,
    vscode.languages.registerCodeLensProvider(files, codeLenses),
    vscode.commands.registerCommand(SendCommands.submit, (uri?: unknown) => sending.submit.submitFile(uri)),
    vscode.commands.registerCommand(SendCommands.preview, (uri?: unknown) => sending.preview.previewFile(uri)),
    vscode.commands.registerCommand(SendCommands.submitPreviewed, (uri?: unknown) => sending.preview.submitPreviewed(uri)),
    vscode.languages.registerCodeLensProvider({ scheme: DOCUMENT_SCHEME }, new PreviewCodeLensProvider(sending.preview)),
    vscode.commands.registerCommand(SendCommands.vettingDryRun, (uri?: unknown) => sending.vetting.dryRun(uri)),
    vscode.commands.registerCommand(SendCommands.vettingApply, (uri?: unknown) => sending.vetting.apply(uri)),
    vscode.commands.registerCommand(SendCommands.uploadDar, (uri?: unknown, request?: DarUploadRequest) => sending.darUpload.upload(uri, request)),
    vscode.commands.registerCommand(SendCommands.openSubmissionResult, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.openResult(x))),
    vscode.commands.registerCommand(SendCommands.resubmit, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.resubmit(x))),
    vscode.commands.registerCommand(SendCommands.retrySameCommandId, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.retry(x))),
    vscode.commands.registerCommand(SendCommands.lookUpSubmission, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.lookUp(x))),
    vscode.commands.registerCommand(SendCommands.copyCommandId, (r?: SubmissionRecord) => withRecord(record(r), (x) => vscode.env.clipboard.writeText(x.commandId))),
    vscode.commands.registerCommand(SendCommands.clearSubmissions, () => history.clear()),
  );
  return sending;
}

/** History commands come from tree items; without one (palette) there is nothing to act on. */
function withRecord<T>(r: SubmissionRecord | undefined, run: (r: SubmissionRecord) => T): T | undefined {
  return r ? run(r) : undefined;
}
