import vscode = require('vscode');
import { CancelledError } from '../../core/errors';
import type { LedgerConnection } from '../../core/ledger/connection';
import type { NetworkMember } from '../../core/network/model';
import { networkMembers } from '../files/editing/preferredVersions';
import { preflightCommands, preflightMarkdown, preflightPasses, type BeforeSubmit, type PreflightResult } from '../../core/network/preflight';
import type { ConnectionTargets } from '../kit/registry';
import type { ConnectionManager } from '../connections/manager';
import { JudgedDiagnostics, openVersion } from './judgedDiagnostics';
import { currentText, fileName, targetUri } from '../files/submit/sourceFile';
import type { MarkdownReports } from '../files/submit/textDocuments';
import { fileKindOf } from '../../core/files/validate';
import { isJsonObject } from '../../core/files/jsonDocument';
import { Disposable } from '../kit/lifecycle';
import { summary, type ErrorReporter, type Prompts } from '../kit/prompts';

/** The buttons of the pre-flight before Submit, as the user reads them (tests answer with the same strings). */
export const PreflightActions = {
  submitAnyway: 'Submit Anyway',
  showReport: 'Show Report',
} as const;

export interface PreflightDeps {
  connections: ConnectionManager;
  targets: ConnectionTargets;
  reports: MarkdownReports;
  errors: ErrorReporter;
  prompts: () => Prompts;
  /** The informees of the file's last preview with this commandId, where one was made. */
  informeesOf?: (uri: vscode.Uri, commandId: string) => string[] | undefined;
}

/** What one pre-flight did: its result (undefined when nothing was run), the report it opened. */
export interface PreflightOutcome {
  result?: PreflightResult;
  passes?: boolean;
  reportUri?: vscode.Uri;
  /** The participants asked, the file's target first. */
  members?: string[];
  /** Why the pre-flight could not run (a cancel leaves both undefined). */
  error?: unknown;
}

/**
 * The pre-flight of `*.commands.json` files in the editor: over every connected connection (the
 * file's target first, which Canton is asked), the core's verdict as diagnostics at each `templateId`
 * that will fail (their own collection, cleared when the file changes or passes) and as a report; and
 * the gate before Submit (`cantonLedger.preflight.beforeSubmit`).
 */
export class PreflightController extends Disposable {
  private readonly diagnostics = this._register(new JudgedDiagnostics('canton-ledger-preflight'));
  private readonly lastReports = new Map<string, string>();

  constructor(private readonly deps: PreflightDeps) {
    super();
  }

  /** The participants of the network as this window holds them: `target` first, then every other connected connection on a synchronizer it is connected to. */
  members(target: LedgerConnection): NetworkMember[] {
    return networkMembers(this.deps.connections, target);
  }

  /** The Pre-flight command: runs it on the file (the CodeLens's, else the active editor's) and opens the report. */
  async preflightFile(arg?: unknown): Promise<PreflightOutcome> {
    const prompts = this.deps.prompts();
    const uri = targetUri(arg);
    if (!uri || fileKindOf(fileName(uri)) !== 'commands') {
      await prompts.message('error', 'Open or select a *.commands.json file first.', []);
      return {};
    }
    const target = await this.deps.targets.resolve(undefined, { purpose: 'run the pre-flight against' });
    if (!target) return {};
    const outcome = await this.run(uri, await currentText(uri), target);
    if (outcome.error !== undefined) await this.deps.errors.report(`The pre-flight of ${fileName(uri)}`, outcome.error);
    if (!outcome.result) return outcome;
    return { ...outcome, reportUri: await this.showReport(uri) };
  }

  /**
   * Before Submit, as the setting asks, when more than one participant is connected: true when the
   * submit may go on. "off" asks nothing; "warn" runs the pre-flight and, when a command will fail or could not be checked, offers Submit Anyway;
   * "block" refuses the submit then.
   */
  async beforeSubmit(uri: vscode.Uri, text: string, target: LedgerConnection): Promise<boolean> {
    const mode = vscode.workspace.getConfiguration('cantonLedger').get<BeforeSubmit>('preflight.beforeSubmit', 'warn');
    // One participant alone: its own answer to the submit says the same, without a round trip more.
    if (mode === 'off' || this.members(target).length < 2) return true;
    const outcome = await this.run(uri, text, target);
    if (outcome.passes) return true;
    const prompts = this.deps.prompts();
    const name = fileName(uri);
    if (!outcome.result) {
      // Cancelled: nothing is sent. Failed: said, never taken for a pass.
      if (outcome.error === undefined) return false;
      const why = `The pre-flight of ${name} could not run: ${summary(outcome.error)}.`;
      if (mode === 'block') {
        await prompts.message('error', `${name} was not submitted. ${why}`, []);
        return false;
      }
      return (await prompts.message('warning', `${why} Submit anyway?`, [PreflightActions.submitAnyway], { modal: true })) === PreflightActions.submitAnyway;
    }
    const failing = outcome.result.packages.filter((v) => v.verdict === 'fails').map((v) => v.packageName);
    const what = failing.length > 0 ? `commands using ${failing.join(', ')} will fail (a host of one of their parties has not vetted a version)` : 'some commands could not be checked';
    const where = `Pre-flight of ${name} over ${outcome.members!.join(', ')}: ${what}. See the Problems at their templateId.`;
    if (mode === 'block') {
      const action = await prompts.message('error', `${name} was not submitted. ${where} (cantonLedger.preflight.beforeSubmit is "block").`, [PreflightActions.showReport]);
      if (action === PreflightActions.showReport) await this.showReport(uri);
      return false;
    }
    const action = await prompts.message('warning', `${where} Submit anyway?`, [PreflightActions.submitAnyway, PreflightActions.showReport], { modal: true });
    if (action === PreflightActions.showReport) await this.showReport(uri);
    return action === PreflightActions.submitAnyway;
  }

  /** Runs the pre-flight of `text` and marks its verdict in the file; `result` undefined when it was cancelled or failed (the user was told). */
  async run(uri: vscode.Uri, text: string, target: LedgerConnection): Promise<PreflightOutcome> {
    const members = this.members(target);
    const name = fileName(uri);
    const version = openVersion(uri);
    let result: PreflightResult;
    try {
      const informees = this.informees(uri, text);
      result = await this.deps.prompts().progress(`Pre-flight of ${name} over ${members.map((m) => m.label).join(', ')}`, (signal) => preflightCommands(text, members, { signal, informees }));
    } catch (e) {
      return e instanceof CancelledError ? {} : { error: e };
    }
    const passes = preflightPasses(result);
    this.diagnostics.set(uri, passes ? [] : result.problems.filter((p) => p.severity !== 'info'), version);
    const labels = members.map((m) => m.label);
    this.lastReports.set(uri.toString(), preflightMarkdown(name, labels, result));
    return { result, passes, members: labels };
  }

  /** A preview's informees, when the file's commandId has one. */
  private informees(uri: vscode.Uri, text: string): string[] | undefined {
    if (!this.deps.informeesOf) return undefined;
    try {
      const value: unknown = JSON.parse(text);
      // The file's JsCommands, wrapped in `commands` or not (as the core reads it).
      const commands = isJsonObject(value) && isJsonObject(value.commands) ? value.commands : value;
      const commandId = isJsonObject(commands) ? commands.commandId : undefined;
      return typeof commandId === 'string' ? this.deps.informeesOf(uri, commandId) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Opens the last report of the file (as the vetting and upload reports open). */
  async showReport(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
    const markdown = this.lastReports.get(uri.toString());
    return markdown === undefined ? undefined : this.deps.reports.show(`preflight/${fileName(uri)}`, markdown);
  }

  /** The pre-flight diagnostics of a file (for the tests). */
  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.diagnostics.get(uri);
  }
}
