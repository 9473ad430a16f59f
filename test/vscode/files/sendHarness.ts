// What the send controllers' tests share: a window (the fake VS Code API) with one connection, active
// and connected, to a demo participant, and the deps a controller is built with.
import { decodeClaims } from '../../../src/core/auth/jwt';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { LedgerConnection } from '../../../src/core/ledger/connection';
import type { PackageStore } from '../../../src/core/ledger/packages';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { ConnectionTargets } from '../../../src/vscode/kit/registry';
import { ConnectionManager } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import type { TokenSourceFactory } from '../../../src/vscode/connections/manager';
import type { JsonDocuments } from '../../../src/vscode/kit/documents';
import type { SendDeps } from '../../../src/vscode/files/submit/submit';
import { ErrorReporter, PromptsPort, type Prompts } from '../../../src/vscode/kit/prompts';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import type { DemoParticipant } from '../../../src/participant';
import { start } from '../../participant/helpers';
import { startFaultProxy, type FaultProxy } from '../../support/faultProxy';
import { fake, MemoryMemento, commands, workspace, type Uri } from '../fake/vscode';

/** Token sources for participants without auth. */
const noTokens: TokenSourceFactory = { sourceFor: () => undefined };

export interface SendWindow {
  profile: ConnectionProfile;
  manager: ConnectionManager;
  /** The profile's connection as it is now (a disconnect makes a new one). */
  readonly connection: LedgerConnection;
  deps: SendDeps;
  /** What the controllers take: the prompts the fake window answers (fake.answerMessage). */
  prompts: () => Prompts;
  dispose(): void;
}

/** Token sources that give every profile `token`. */
function fixedToken(token: string): TokenSourceFactory {
  return { sourceFor: () => ({ provider: async () => token, claims: () => decodeClaims(token), newAttempt: () => undefined, dispose: () => undefined }) };
}

/** A fresh fake window connected to `url` as "Demo" (with `token`, when given); `documents` and `packages` as the test needs them. */
export async function sendWindow(url: string, o: { documents?: Partial<JsonDocuments>; packages?: PackageStore; token?: string } = {}): Promise<SendWindow> {
  fake.reset();
  // The reports open in the built-in Markdown preview; here it only has to exist.
  commands.registerCommand('markdown.showPreview', () => undefined);
  const profiles = new ProfileStore(new MemoryMemento() as never);
  const manager = new ConnectionManager(profiles, o.token === undefined ? noTokens : fixedToken(o.token), silentLogger, new Redactor(), o.packages);
  const profile: ConnectionProfile = { id: 'demo', name: 'Demo', url, auth: o.token === undefined ? 'none' : 'jwt', userId: 'demo-admin', source: 'user' };
  await profiles.save(profile);
  await profiles.setActive(profile.id);
  await manager.connectionFor(profile).connect();
  const port = new PromptsPort(windowPrompts);
  const errors = new ErrorReporter(silentLogger, new Redactor(), port, () => undefined);
  const deps: SendDeps = { connections: manager, documents: (o.documents ?? {}) as JsonDocuments, logger: silentLogger, redactor: new Redactor(), errors, targets: new ConnectionTargets(manager, port, commands, errors) };
  return {
    profile,
    manager,
    get connection() {
      return manager.connectionFor(profile);
    },
    deps,
    prompts: () => port,
    dispose: () => {
      manager.dispose();
      profiles.dispose();
    },
  };
}

/** A demo participant behind a fault proxy, for the whole suite (registers mocha's before and after hooks). */
export function participantBehindProxy(): { readonly participant: DemoParticipant; readonly proxy: FaultProxy } {
  const suite = {} as { participant: DemoParticipant; proxy: FaultProxy };
  before(async () => {
    suite.participant = await start({ port: 0 });
    suite.proxy = await startFaultProxy(suite.participant.url);
  });
  after(async () => {
    workspace.textDocuments.splice(0);
    await suite.proxy.close();
    await suite.participant.close();
  });
  return suite;
}

/** The commands file open in the fake window: the bank creates an Iou for Alice under `commandId`. */
export function openCommandsFile(uri: Uri, p: DemoParticipant, commandId: string, templateId = '#demo-iou:Iou:Iou'): void {
  const { bank, alice } = p.parties;
  const text = JSON.stringify({ commandId, actAs: [bank], commands: [{ CreateCommand: { templateId, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '10.0', observers: [] } } }] });
  workspace.textDocuments.splice(0, workspace.textDocuments.length, { uri, getText: () => text });
}
