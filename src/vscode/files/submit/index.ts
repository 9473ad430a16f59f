/** Sending files to the participant: submitting commands, vetting changes, and the Submissions history. */
import vscode = require('vscode');
import type { SubmissionRecord } from '../../../core/submit/history';
import { DOCUMENT_SCHEME } from '../../kit/documents';
import { SendCodeLensProvider } from './codeLens';
import { CommandIdAssist } from './commandId';
import { SubmissionHistory, SubmissionsTreeProvider } from './history';
import { Commands, Views } from '../../kit/ids';
import type { CommandRegistry } from '../../kit/registry';
import type { Prompts, PromptsPort } from '../../kit/prompts';
import { bundledPreviewReader, PreviewCodeLensProvider, PreviewController } from './preview';
import { SubmitController, type SendDeps } from './submit';
import { MarkdownReports } from './textDocuments';
import { VettingController } from './vetting';
import { DarUploadController, type DarUploadRequest } from './darUpload';
import { CauseDiagnostics } from './causeDiagnostics';

export type { SendDeps } from './submit';

/** The handles the end-to-end tests use; `prompts` can be replaced to answer questions (every command's, not only these). */
export interface FileSending {
  submit: SubmitController;
  preview: PreviewController;
  vetting: VettingController;
  darUpload: DarUploadController;
  history: SubmissionHistory;
  prompts: Prompts;
  /** The vetting and DAR upload reports shown as read-only Markdown documents. */
  reports: MarkdownReports;
  /** The causes of rejections, marked in their files (the Failed Commands view marks them too). */
  causes: CauseDiagnostics;
}

export function registerFileSending(context: vscode.ExtensionContext, commands: CommandRegistry, deps: SendDeps & { showLog: () => void }, port: PromptsPort): { sending: FileSending; disposables: vscode.Disposable[] } {
  const history = new SubmissionHistory(context.workspaceState);
  const reports = new MarkdownReports();
  const prompts = () => port;
  const causes = new CauseDiagnostics();
  // The explanation is the Failed Commands view's, reached through its command (a feature of its own).
  const explainRecord = (r: SubmissionRecord) => Promise.resolve(vscode.commands.executeCommand(Commands.explainFailedCommand, r));
  const submit = new SubmitController(deps, history, prompts, deps.showLog, { causes, explain: explainRecord });
  const sending: FileSending = {
    submit,
    preview: new PreviewController(deps, submit, prompts, deps.showLog, bundledPreviewReader(context.extensionPath), history),
    vetting: new VettingController(deps, reports, prompts, deps.showLog),
    darUpload: new DarUploadController(deps, reports, prompts, deps.showLog),
    history,
    reports,
    causes,
    get prompts() {
      return port.current;
    },
    set prompts(p: Prompts) {
      port.current = p;
    },
  };
  const tree = new SubmissionsTreeProvider(history);
  const files = [{ pattern: '**/*.commands.json' }, { pattern: '**/*.vetting.json' }];
  const record = (r: SubmissionRecord | undefined) => (r ? history.get(r.id) ?? r : undefined);

  const codeLenses = new SendCodeLensProvider(deps.connections);
  const commandIds = new CommandIdAssist(history);
  const disposables: vscode.Disposable[] = [
    history,
    sending.preview,
    reports,
    tree,
    vscode.window.createTreeView(Views.submissions, { treeDataProvider: tree }),
    codeLenses,
    vscode.languages.registerCodeLensProvider(files, codeLenses),
    vscode.languages.registerCodeLensProvider({ scheme: DOCUMENT_SCHEME }, new PreviewCodeLensProvider(sending.preview)),
    commandIds,
    vscode.languages.registerCodeActionsProvider(files[0], commandIds, CommandIdAssist.metadata),
    causes,
  ];
  commands.register(Commands.submit, (uri?: unknown) => sending.submit.submitFile(uri));
  commands.register(Commands.preview, (uri?: unknown) => sending.preview.previewFile(uri));
  commands.register(Commands.submitPreviewed, (uri?: unknown) => sending.preview.submitPreviewed(uri));
  commands.register(Commands.vettingDryRun, (uri?: unknown) => sending.vetting.dryRun(uri));
  commands.register(Commands.vettingApply, (uri?: unknown) => sending.vetting.apply(uri));
  commands.register(Commands.uploadDar, (uri?: unknown, request?: DarUploadRequest) => sending.darUpload.upload(uri, request));
  commands.register(Commands.openSubmissionResult, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.openResult(x)));
  commands.register(Commands.resubmit, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.resubmit(x)));
  commands.register(Commands.retrySameCommandId, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.retry(x)));
  commands.register(Commands.lookUpSubmission, (r?: SubmissionRecord) => withRecord(record(r), (x) => sending.submit.lookUp(x)));
  commands.register(Commands.copyCommandId, (r?: SubmissionRecord) => withRecord(record(r), (x) => vscode.env.clipboard.writeText(x.commandId)));
  commands.register(Commands.clearSubmissions, () => history.clear());
  return { sending, disposables };
}

/** History commands come from tree items; without one (palette) there is nothing to act on. */
function withRecord<T>(r: SubmissionRecord | undefined, run: (r: SubmissionRecord) => T): T | undefined {
  return r ? run(r) : undefined;
}
