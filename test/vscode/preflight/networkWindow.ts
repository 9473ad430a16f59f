// A fake window holding a connection, connected, to each participant of a demo network (the first
// name active), and the pieces the network glue is built from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConnectionProfile } from '../../../src/core/connections';
import { silentLogger } from '../../../src/core/log';
import type { PackageStore } from '../../../src/core/ledger/packages';
import { Redactor } from '../../../src/core/redact';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { ConnectionTargets } from '../../../src/vscode/kit/registry';
import { ConnectionManager, type TokenSourceFactory } from '../../../src/vscode/connections/manager';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import type { PreflightDeps } from '../../../src/vscode/preflight/preflightController';
import { ErrorReporter, PromptsPort } from '../../../src/vscode/kit/prompts';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { startCheckedNetwork } from '../../support/demoNetwork';
import { commands, fake, MemoryMemento, workspace } from '../fake/vscode';

const noTokens: TokenSourceFactory = { sourceFor: () => undefined };

export interface NetworkWindow {
  manager: ConnectionManager;
  deps: PreflightDeps;
  reports: MarkdownReports;
  dispose(): void;
}

/** `packages`: where the connections read their Daml packages (none: they cannot). */
export async function networkWindow(net: DemoNetwork, names: readonly string[], packages?: PackageStore): Promise<NetworkWindow> {
  fake.reset();
  // The reports open in the built-in Markdown preview; here it only has to exist.
  commands.registerCommand('markdown.showPreview', () => undefined);
  const profiles = new ProfileStore(new MemoryMemento() as never);
  const manager = new ConnectionManager(profiles, noTokens, silentLogger, new Redactor(), packages);
  for (const name of names) {
    const profile: ConnectionProfile = { id: name, name, url: net.participant(name).url, auth: 'none', source: 'user' };
    await profiles.save(profile);
    await manager.connectionFor(profile).connect();
  }
  await profiles.setActive(names[0]);
  const port = new PromptsPort(windowPrompts);
  const errors = new ErrorReporter(silentLogger, new Redactor(), port, () => undefined);
  const reports = new MarkdownReports();
  const deps: PreflightDeps = { connections: manager, targets: new ConnectionTargets(manager, port, commands, errors), reports, errors, prompts: () => port };
  return {
    manager,
    deps,
    reports,
    dispose: () => {
      reports.dispose();
      manager.dispose();
      profiles.dispose();
    },
  };
}

/** A demo network and a scratch folder for the whole suite (registers mocha's before and after hooks). */
export function networkForSuite(prefix: string): { readonly net: DemoNetwork; readonly dir: string } {
  const suite = { dir: mkdtempSync(join(tmpdir(), prefix)) } as { net: DemoNetwork; dir: string };
  before(async () => {
    suite.net = await startCheckedNetwork({ seed: false });
  });
  after(async () => {
    workspace.textDocuments.splice(0);
    rmSync(suite.dir, { recursive: true, force: true });
    await suite.net.close();
  });
  return suite;
}
