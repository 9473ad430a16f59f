/** Add LocalNet Connections…: one connection per participant of a cn-quickstart LocalNet, read from its checkout. */
import vscode = require('vscode');
import { randomUUID } from 'node:crypto';
import type { ConnectionProfile } from '../../core/connections';
import { describeLocalNetProblem, readLocalNet, type LocalNetParticipant, type LocalNetReading } from '../../core/network/localnet';
import { Commands } from '../kit/ids';
import type { ConnectionManager } from '../connections/manager';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import type { Prompts } from '../kit/prompts';
import type { SecretStore } from '../kit/secrets';

export const LocalNetActions = { connectAll: 'Connect All' } as const;

export interface LocalNetOutcome {
  reading?: LocalNetReading;
  /** The connections added (or updated: a LocalNet connection of the same URL is kept, with its id and secrets). */
  added: ConnectionProfile[];
}

export class LocalNetConnections {
  constructor(
    private readonly connections: ConnectionManager,
    private readonly secrets: SecretStore,
    private readonly prompts: () => Prompts,
    private readonly connect: (profile: ConnectionProfile) => Promise<unknown>,
  ) {}

  /** Asks for the checkout folder (unless given), reads it, and adds a connection per participant, asking only for a client secret it could not read. */
  async add(folderArg?: unknown): Promise<LocalNetOutcome> {
    const prompts = this.prompts();
    const folder = folderArg instanceof vscode.Uri ? folderArg : (await prompts.openDialog({ canSelectFolders: true, canSelectFiles: false, canSelectMany: false, title: 'The cn-quickstart checkout of your LocalNet', openLabel: 'Read LocalNet' }))?.[0];
    if (!folder) return { added: [] };
    const reading = await readLocalNet(async (path) => {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(path ? vscode.Uri.joinPath(folder, ...path.split('/')) : folder));
      } catch {
        return undefined;
      }
    });
    const problems = reading.problems.map(describeLocalNetProblem);
    if (reading.participants.length === 0) {
      await prompts.message('error', `No LocalNet participant found in ${folder.fsPath}: ${problems.join(' ')}`, []);
      return { reading, added: [] };
    }
    const added: ConnectionProfile[] = [];
    for (const p of reading.participants) {
      const profile = await this.save(p);
      if (!profile) break;
      added.push(profile);
    }
    const listed = added.map((p) => `${p.name} (${p.url}${p.auth === 'none' ? '' : `, ${p.auth}`})`).join(', ');
    const notes = [...reading.notes, ...reading.participants.flatMap((p) => p.notes), ...problems];
    const action = await prompts.message(problems.length > 0 ? 'warning' : 'info', `Added ${added.length} LocalNet connection${added.length === 1 ? '' : 's'}: ${listed}.${notes.length > 0 ? ` ${notes.join(' ')}` : ''}`, added.length > 0 ? [LocalNetActions.connectAll] : []);
    if (action === LocalNetActions.connectAll) for (const profile of added) await this.connect(profile);
    return { reading, added };
  }

  /** Saves the participant's profile (the one already there for its URL keeps its id) and its client secret; undefined when the user gave up. */
  private async save(p: LocalNetParticipant): Promise<ConnectionProfile | undefined> {
    const existing = this.connections.profiles.all().find((x) => x.source === 'user' && x.url === p.url);
    const profile: ConnectionProfile = {
      id: existing?.id ?? randomUUID(),
      name: existing?.name ?? `LocalNet ${p.role}`,
      url: p.url,
      auth: p.auth,
      userId: p.userId,
      ...(p.oauth2 ? { tokenUrl: p.oauth2.tokenUrl, clientId: p.oauth2.clientId, audience: p.oauth2.audience } : {}),
      source: 'user',
    };
    if (p.oauth2) {
      const secret =
        p.oauth2.clientSecret ??
        (await this.prompts().input({ title: `LocalNet ${p.role}: client secret`, prompt: `The OAuth2 client secret of ${p.oauth2.clientId} (Keycloak); kept in secret storage`, password: true, ignoreFocusOut: true }));
      if (secret === undefined) return undefined;
      await this.connections.profiles.save(profile);
      await this.secrets.set(profile.id, 'clientSecret', secret);
      return profile;
    }
    await this.connections.profiles.save(profile);
    return profile;
  }
}

export function activateLocalNet(host: FeatureHost): ActivatedFeature<LocalNetConnections> {
  const localNet = new LocalNetConnections(host.connections, host.secrets, () => host.prompts, async (profile) => {
    // A token to paste: Set Token asks for it and connects once it is stored (as Add Connection does).
    await vscode.commands.executeCommand(profile.auth === 'jwt' ? Commands.setToken : Commands.connect, profile.id);
  });
  host.commands.register(Commands.addLocalNetConnections, (folder?: unknown) => localNet.add(folder));
  return { disposables: [], api: localNet };
}
