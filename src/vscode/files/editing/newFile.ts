import vscode = require('vscode');
import * as path from 'node:path';
import { CancelledError } from '../../../core/errors';
import type { Logger } from '../../../core/log';
import type { PackageIndex } from '../../../core/daml/packageIndex';
import { actingParty, commandFor, commandsFileTemplate, PLACEHOLDER, templateText, TEMPLATE_ID_PLACEHOLDER, vettingFileTemplate, type VettingFileFacts } from '../../../core/files/templates';
import type { LedgerConnection } from '../../../core/ledger/connection';
import type { LedgerPackages } from '../../kit/ledgerPackages';
import { summary, type Prompts } from '../../kit/prompts';
import type { FileKind } from '../../../core/files/validate';
import { Commands } from '../../kit/ids';
import type { CommandRegistry } from '../../kit/registry';
import { newScriptText } from '../../../core/scripts/newScript';
import type { ConnectedParticipant, ConnectionFacts } from './connectionFacts';
import type { VersionLookup } from '../../../core/files/damlAssist';
import type { EditorVersions } from './preferredVersions';

/** How long the template picker waits for the versions Canton will use (cancellable): past it, the templates are offered without them. */
const PICKER_WAIT_MS = 3000;

/** Where to create the file, for callers that know (tests, other views); otherwise the user is asked. */
export interface NewFileTarget {
  /** The file to write (created or overwritten); a string is a file path or a URI. */
  uri?: vscode.Uri | string;
  /** An unsaved document (named like the file it would become) instead of a file on disk. */
  untitled?: boolean;
  /** The folder to create the file in (default: the first workspace folder); its name is asked. */
  folder?: vscode.Uri;
}

/** The argument of `cantonLedger.files.newCommands`, e.g. from the Packages view: the command to start from. */
export interface NewCommandsFileOptions extends NewFileTarget {
  /** A template (or interface) id: the file creates it, or exercises `choice` on it. */
  templateId?: string;
  choice?: string;
  /** Ask for the template (and choice) among the participant's packages when none is given (the palette). */
  pickTemplate?: boolean;
  /** A complete command to write (e.g. an ExerciseCommand of a contract from the Active Contracts view), instead of `templateId`/`choice`. */
  command?: Record<string, unknown>;
  /** The party to act as (default: from the user's rights). */
  actAs?: string;
}

/** The argument of `cantonLedger.files.newVetting`, e.g. from the vetted-packages view. */
export interface NewVettingFileOptions extends NewFileTarget {
  synchronizerId?: string;
  /** The serial to guard with (`Prior`); 0 or less means nothing is vetted yet (`NoPrior`). */
  expectedTopologySerial?: number;
}

const SUFFIX: Record<FileKind, string> = { commands: '.commands.json', vetting: '.vetting.json', script: '.ledger.json' };

/** The button that turns "the packages could not be read" into a file with a placeholder template. */
export const CREATE_PLACEHOLDER_FILE = 'Use Placeholders';

/**
 * "New Commands File" and "New Vetting File": a file from a template filled from the active connection
 * (user, act-as party, synchronizer, topology serial), or with marked placeholders without one.
 */
export class NewFileCommands {
  constructor(
    private readonly facts: ConnectionFacts,
    private readonly packages: LedgerPackages,
    private readonly logger: Logger,
    private readonly prompts: Prompts,
    private readonly versions?: EditorVersions,
  ) {}

  register(commands: CommandRegistry): void {
    commands.register(Commands.newCommandsFile, (arg?: NewCommandsFileOptions | vscode.Uri) =>
      // From the palette or the explorer (no options): offer the participant's templates.
      this.newCommandsFile({ pickTemplate: !arg || arg instanceof vscode.Uri, ...optionsOf(arg) }),
    );
    commands.register(Commands.newVettingFile, (arg?: NewVettingFileOptions | vscode.Uri) => this.newVettingFile(optionsOf(arg)));
    commands.register(Commands.newLedgerScript, (arg?: NewFileTarget | vscode.Uri) => this.newLedgerScript(optionsOf(arg)));
  }

  /** The created document's URI, or undefined when the user cancelled. */
  async newCommandsFile(options: NewCommandsFileOptions = {}): Promise<vscode.Uri | undefined> {
    const participant = await this.participant();
    const info = participant?.info;
    let index = participant ? this.packages.indexFor(participant.connection) : undefined;
    let { templateId, choice } = options;
    const acting = options.actAs ?? actingParty(info?.rights, info?.user?.primaryParty ?? undefined);
    if (!templateId && options.pickTemplate && participant) {
      // Right after connecting the packages are still being read: the picker waits for them.
      const read = index ?? (await this.packagesRead(participant.connection, { file: 'New commands file', reading: 'for the template picker' }));
      if (read === null) return undefined;
      index = read;
      if (index) {
        const versions = acting ? await this.versionsFor(index, acting, participant) : undefined;
        if (versions === null) return undefined;
        const picked = await pickTemplateAndChoice(index, this.prompts, versions);
        if (picked === null) return undefined;
        ({ templateId, choice } = picked ?? {});
      }
    }
    const party = acting ?? PLACEHOLDER.party;
    const command = options.command ?? (templateId && index ? commandFor(index, templateId, choice, party) : undefined);
    const value = commandsFileTemplate({
      command,
      actAs: options.actAs,
      userId: info?.user?.id ?? participant?.profile.userId,
      rights: info?.rights,
      primaryParty: info?.user?.primaryParty ?? undefined,
      // With several synchronizers Canton picks one that hosts the contracts; pinning one could make it fail.
      synchronizerId: info?.synchronizers.length === 1 ? info.synchronizers[0].synchronizerId : undefined,
    });
    const notice = participant ? undefined : 'No connected participant: fill in the values marked <…> (the file shows them as problems until you do).';
    const selectText = options.command ? '"choiceArgument"' : command ? (choice ? PLACEHOLDER.contractId : '"createArguments"') : TEMPLATE_ID_PLACEHOLDER;
    return this.create('commands', templateText(value), options, selectText, notice);
  }

  async newVettingFile(options: NewVettingFileOptions = {}): Promise<vscode.Uri | undefined> {
    const participant = await this.participant();
    const synchronizerId = options.synchronizerId ?? (await this.pickSynchronizer(participant));
    if (synchronizerId === null) return undefined;
    const facts: VettingFileFacts = { synchronizerId };
    if (options.expectedTopologySerial !== undefined) {
      facts.topologySerial = options.expectedTopologySerial > 0 ? options.expectedTopologySerial : null;
    } else if (participant && synchronizerId) {
      facts.topologySerial = await this.currentSerial(participant, synchronizerId);
    }
    const notice = participant ? undefined : 'No connected participant: add "synchronizerId" and "expectedTopologySerial" if you need them (completions offer both).';
    return this.create('vetting', templateText(vettingFileTemplate(facts)), options, 'package-name', notice);
  }

  /**
   * The connection's packages once read, with a cancellable progress while they are. When they cannot
   * be read, says so and offers the file with a placeholder template: undefined when taken, null when
   * the user cancelled or declined.
   */
  private async packagesRead(connection: LedgerConnection, purpose: { file: string; reading: string }): Promise<PackageIndex | undefined | null> {
    const { profile } = connection;
    let state;
    try {
      state = await this.prompts.progress(`Reading the Daml packages of ${profile.name} ${purpose.reading}`, (signal) => this.packages.read(connection, signal));
    } catch (e) {
      if (e instanceof CancelledError) return null;
      state = { state: 'failed' as const, error: e as Error };
    }
    if (state.state === 'ready') return state.context.packages;
    const why = state.state === 'failed' ? `: ${summary(state.error)}` : '';
    this.logger.warn(`${purpose.file}: the Daml packages of ${profile.name} are not available${why}`);
    const choice = await this.prompts.message('warning', `The Daml packages of ${profile.name} could not be read${why}. Without them there are no templates to pick from.`, [CREATE_PLACEHOLDER_FILE]);
    return choice === CREATE_PLACEHOLDER_FILE ? undefined : null;
  }

  /** The versions Canton will use of each template's package for the new file's party, waited for a while (null: the user cancelled). */
  private async versionsFor(index: PackageIndex, party: string, participant: ConnectedParticipant): Promise<VersionLookup | undefined | null> {
    if (!this.versions) return undefined;
    const names = pickable(index).map((t) => t.packageName);
    try {
      return await this.prompts.progress(`Asking ${participant.profile.name} which versions Canton will use for ${party.split('::', 1)[0]}`, (signal) => this.versions!.lookup(names, [party], { signal, waitMs: PICKER_WAIT_MS, packages: index }));
    } catch (e) {
      if (e instanceof CancelledError) return null;
      throw e;
    }
  }

  private participant(): Promise<ConnectedParticipant | undefined> {
    return this.prompts.progress('Reading the active connection', (signal) => this.facts.active(signal, true));
  }

  /** The synchronizer to vet on: the only one, or the user's pick of several; undefined if unknown, null if cancelled. */
  private async pickSynchronizer(participant: ConnectedParticipant | undefined): Promise<string | undefined | null> {
    const synchronizers = participant?.info.synchronizers ?? [];
    if (synchronizers.length <= 1) return synchronizers[0]?.synchronizerId;
    const picked = await this.prompts.pick(
      synchronizers.map((s) => ({ label: s.synchronizerAlias, description: s.synchronizerId, id: s.synchronizerId })),
      { title: 'New Vetting File', placeHolder: 'The synchronizer whose vetted packages to change', ignoreFocusOut: false },
    );
    return picked ? picked.id : null;
  }

  /** This participant's topology serial on the synchronizer; null when it has vetted nothing there; undefined when unreadable. */
  private async currentSerial(participant: ConnectedParticipant, synchronizerId: string): Promise<number | null | undefined> {
    try {
      const states = await this.prompts.progress('Reading the vetted packages', (signal) =>
        participant.client.listVettedPackages({ topologyStateFilter: { synchronizerIds: [synchronizerId] } }, { signal }),
      );
      const own = states.filter((s) => s.synchronizerId === synchronizerId && (!participant.info.participantId || s.participantId === participant.info.participantId));
      return own.length > 0 ? Math.max(...own.map((s) => s.topologySerial)) : null;
    } catch (e) {
      // Without the serial the file simply has no guard; the user can still add one.
      this.logger.warn(`New vetting file: topology serial unavailable (${(e as Error).message})`);
      return undefined;
    }
  }

  /**
   * A ledger script for the active connection: its parties by alias, and a first step that creates a
   * contract of one of its templates with real values (else one to fill in), which runs as written.
   */
  async newLedgerScript(options: NewFileTarget = {}): Promise<vscode.Uri | undefined> {
    const participant = await this.participant();
    const info = participant?.info;
    // Right after connecting the packages are still being read: the template is chosen once they are.
    const packages = participant ? (this.packages.indexFor(participant.connection) ?? (await this.packagesRead(participant.connection, { file: 'New ledger script', reading: 'for its first step' }))) : undefined;
    if (packages === null) return undefined;
    const text = newScriptText({ partyIds: info?.parties.map((p) => p.party) ?? [], actingParty: actingParty(info?.rights, info?.user?.primaryParty ?? undefined), packages });
    return this.create('script', text, options, '"createArguments"');
  }

  /** Writes and opens the file, selects `selectText` (what to edit first), and shows `notice` if any. */
  private async create(kind: FileKind, text: string, options: NewFileTarget, selectText: string, notice?: string): Promise<vscode.Uri | undefined> {
    const target = await this.target(kind, options);
    if (!target) return undefined;
    let document: vscode.TextDocument;
    if (target.scheme === 'untitled') {
      document = await vscode.workspace.openTextDocument(target);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(target, new vscode.Range(0, 0, document.lineCount, 0), text);
      await vscode.workspace.applyEdit(edit);
    } else {
      await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
      document = await vscode.workspace.openTextDocument(target);
    }
    const editor = await vscode.window.showTextDocument(document);
    const at = text.indexOf(selectText);
    if (at >= 0) editor.selection = new vscode.Selection(document.positionAt(at), document.positionAt(at + selectText.length));
    if (notice) void this.prompts.message('info', notice, []);
    return target;
  }

  private async target(kind: FileKind, options: NewFileTarget): Promise<vscode.Uri | undefined> {
    const suffix = SUFFIX[kind];
    if (options.uri) return withSuffix(typeof options.uri === 'string' ? parseUri(options.uri) : options.uri, suffix);
    const folder = options.folder ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    if (options.untitled || !folder) {
      const free = await freeName(folder, suffix, true);
      return free.with({ scheme: 'untitled' });
    }
    return askFileName(this.prompts, folder, suffix, { commands: 'New Commands File', vetting: 'New Vetting File', script: 'New Ledger Script' }[kind], await freeName(folder, suffix, false));
  }
}

/**
 * The template to start from, among the participant's, then what to do with it (create it, or
 * exercise one of its choices). Undefined: the user chose the blank file; null: cancelled.
 */
async function pickTemplateAndChoice(index: PackageIndex, prompts: Prompts, versions: VersionLookup | undefined): Promise<{ templateId: string; choice?: string } | undefined | null> {
  const blank = { label: '$(file) Blank commands file', description: 'a placeholder template to fill in', templateId: undefined };
  const unique = pickable(index)
    .map((t) => ({ label: t.packageNameForm, ...versionLabel(t.packageName, t.packageVersion, versions?.(t.packageName)), templateId: t.packageNameForm as string | undefined }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const template = await prompts.pick([blank, ...unique], { title: 'New Commands File (1/2): template', placeHolder: 'The template to create or exercise a choice of' });
  if (!template) return null;
  if (!template.templateId) return undefined;
  const choices = index.choices(template.templateId) ?? [];
  const create = { label: `$(add) Create ${template.label.split(':').pop()}`, choice: undefined as string | undefined };
  const action = await prompts.pick([create, ...choices.map((c) => ({ label: `$(symbol-method) Exercise ${c.choice.name}`, description: c.declaredIn === 'interface' ? `from ${c.declaredBy.name}` : undefined, choice: c.choice.name as string | undefined }))], {
    title: 'New Commands File (2/2): command',
  });
  if (!action) return null;
  return { templateId: template.templateId, choice: action.choice };
}

/** The templates the picker offers: one per package-name form, without the standard library's. */
function pickable(index: PackageIndex) {
  return index.templatesByPackageName().filter((t) => !/^(daml-|ghc-)/.test(t.packageName));
}

/**
 * A template's description and detail in the picker: the version Canton will use for the file's
 * party (and, where that is not the highest known here, why), or why no version fits.
 */
function versionLabel(packageName: string, localVersion: string, words: ReturnType<VersionLookup>): { description: string; detail?: string } {
  if (typeof words !== 'object') return { description: `${packageName} ${localVersion}` };
  if (words.verdict === 'ok' && words.chosen) {
    // Which hosts lack it, where the answer names them; else how the version was decided.
    const hosts = words.why.slice(1).filter((w) => / is hosted on /.test(w));
    const passedOver = words.chosen.packageVersion !== localVersion ? `${packageName} ${localVersion}, the highest known here, is not vetted by every host of the party: ${hosts.length > 0 ? hosts.join(' ') : words.why[0]}` : undefined;
    return { description: `$(check) ${words.headline}`, ...(passedOver ? { detail: passedOver } : {}) };
  }
  return { description: `${words.verdict === 'fails' ? '$(error)' : '$(question)'} ${words.headline}`, detail: words.why.join(' ') };
}

/** From the explorer's context menu the argument is the folder clicked; from elsewhere, options or nothing. */
function optionsOf<T extends NewFileTarget>(arg: T | vscode.Uri | undefined): T {
  return arg instanceof vscode.Uri ? ({ folder: arg } as T) : (arg ?? ({} as T));
}

function parseUri(value: string): vscode.Uri {
  return /^[a-z][a-z0-9+.-]+:/i.test(value) && !/^[a-z]:[\\/]/i.test(value) ? vscode.Uri.parse(value) : vscode.Uri.file(value);
}

/**
 * The new file's name in `folder`, asked in an input box with the stem selected, so that typing a name
 * keeps the suffix ("transfer" → transfer.commands.json; a save dialog would select up to `.json`).
 */
async function askFileName(prompts: Prompts, folder: vscode.Uri, suffix: string, title: string, proposed: vscode.Uri): Promise<vscode.Uri | undefined> {
  const value = path.posix.basename(proposed.path);
  const named = (v: string) => withSuffix(vscode.Uri.joinPath(folder, v.trim()), suffix);
  const name = await prompts.input({
    title,
    prompt: `The file's name in ${vscode.workspace.asRelativePath(folder, true) || folder.fsPath} (${suffix} is added if missing)`,
    value,
    valueSelection: [0, value.length - suffix.length],
    ignoreFocusOut: true,
    validateInput: async (v) => {
      if (!v.trim()) return 'A name is needed';
      if (/[/\\]/.test(v)) return 'A name, without folders';
      const exists = await vscode.workspace.fs.stat(named(v)).then(() => true, () => false);
      return exists ? `${path.posix.basename(named(v).path)} already exists` : undefined;
    },
  });
  return name === undefined ? undefined : named(name);
}

/** The name must end in the suffix, or the file gets neither the schema nor the diagnostics. */
function withSuffix(uri: vscode.Uri, suffix: string): vscode.Uri {
  if (uri.path.toLowerCase().endsWith(suffix)) return uri;
  return uri.with({ path: uri.path.replace(/\.json$/i, '') + suffix });
}

/** `new.commands.json`, or `new-2.commands.json`, … : the first name not taken in the folder (or among open documents). */
async function freeName(folder: vscode.Uri | undefined, suffix: string, untitled: boolean): Promise<vscode.Uri> {
  const base = folder ?? vscode.Uri.file('/');
  for (let n = 1; ; n++) {
    const candidate = vscode.Uri.joinPath(base, `new${n === 1 ? '' : `-${n}`}${suffix}`);
    const open = vscode.workspace.textDocuments.some((d) => d.uri.path === candidate.path);
    if (open) continue;
    if (!untitled || folder) {
      try {
        await vscode.workspace.fs.stat(candidate);
        continue;
      } catch {
        // Not there: free.
      }
    }
    return candidate;
  }
}
