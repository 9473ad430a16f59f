// Upload DAR… and the Add Connection wizard's participant id, in the real extension host against demo
// participants of their own (the embedded one keeps its catalog for the suites after this one): a shared
// DAR uploaded, listed and vetted in the views; a validation on 3.5 that changes nothing; a bad file
// refused with its Canton code; a sandbox-secret connection gets no token until it names its participant.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant, DemoParticipantOptions } from '../../../src/participant';
import type { DarUploadControllerOutcome } from '../../../src/vscode/files/submit/darUpload';
import type { AuthError, CantonApiError } from '../../../src/core/errors';
import { extension, newSecret, waitFor, workspaceDir } from './helpers';
import { closeEditors, scripted } from './sendHelpers';

const HOLDING_DAR = 'splice-api-token-holding-v1-1.0.0.dar';

type ParticipantModule = { startDemoParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> };

function startParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js')) as ParticipantModule;
  return mod.startDemoParticipant({ port: 0, ...o });
}

function uploadDar(uri: vscode.Uri, request?: { mode?: 'validate' | 'upload'; vet?: boolean }): Thenable<DarUploadControllerOutcome> {
  return vscode.commands.executeCommand<DarUploadControllerOutcome>('cantonLedger.packages.uploadDar', uri, request);
}

describe('Upload DAR', function () {
  this.timeout(60_000);
  let api: CantonLedgerApi;
  let p: DemoParticipant;
  let profileId: string;
  let previousActive: string | undefined;
  const shared = () => path.resolve(extension().extensionPath, '../shared/daml/dars', HOLDING_DAR);

  before(async function () {
    if (!fs.existsSync(shared())) {
      console.warn(`!!! SKIPPING the Upload DAR suite: ${shared()} is missing (the shared DARs live beside the repository)`);
      this.skip();
    }
    ({ api } = await scripted());
    previousActive = api.connections.profiles.activeId();
    p = await startParticipant({ seed: 31, apiVersion: '3.5' });
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E DAR upload', url: p.url, auth: 'none', userId: 'demo-admin' });
    profileId = profile.id;
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', profileId);
    await waitFor(() => api.connections.connection(profileId)!.state.state === 'connected', { what: 'the connection connected' });
  });

  after(async () => {
    await closeEditors();
    if (profileId) {
      api.connections.disconnect(api.connections.connection(profileId)!);
      await api.connections.profiles.remove(profileId);
    }
    await api?.connections.profiles.setActive(previousActive);
    await p?.close();
  });

  const client = () => api.connections.connectionFor(api.connections.profiles.get(profileId)!).client;
  const profile = () => api.connections.profiles.get(profileId)!;

  it('validation on 3.5 is a dry run: the report lists the packages, the ledger does not change', async () => {
    const { prompts } = await scripted();
    const before = await client().listVettedPackages();
    const packagesBefore = await client().packages();
    const outcome = await uploadDar(vscode.Uri.file(shared()), { mode: 'validate' });
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.result?.mode, 'validate');
    const main = outcome.result!.packages.find((x) => x.main)!;
    assert.equal(main.name, 'splice-api-token-holding-v1');
    assert.equal(main.isNew, true);
    assert.deepEqual(await client().packages(), packagesBefore);
    assert.deepEqual(await client().listVettedPackages(), before);
    const report = (await vscode.workspace.openTextDocument(outcome.reportUri!)).getText();
    assert.match(report, /^# Validation of splice-api-token-holding-v1-1\.0\.0\.dar on E2E DAR upload: valid, nothing was changed$/m);
    // Shown rendered: a Markdown preview (a webview tab), not the text.
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    await waitFor(() => tabs().some((t) => t.input instanceof vscode.TabInputWebview && t.label.includes('splice-api-token-holding-v1-1.0.0.dar validation')), {
      what: `a preview tab of the report (tabs: ${tabs().map((t) => t.label).join(', ')})`,
    });
    assert.ok(!tabs().some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === outcome.reportUri!.toString()), 'the report is not open as text');
    assert.match(prompts.last().text, /^splice-api-token-holding-v1-1\.0\.0\.dar is valid on E2E DAR upload: \d+ packages?, \d+ new; vetting unchanged\. Nothing was changed\.$/);
    assert.deepEqual(prompts.last().actions, ['Upload and Vet']);
  });

  it('upload: the new packages in the report, listed in Packages and vetted in Vetted Packages without a manual refresh', async () => {
    const { prompts } = await scripted();
    // Both views have read the participant before the upload.
    await waitFor(() => api.packages.stateOf(api.connections.connectionFor(profile())).state === 'ready', { what: 'the packages read' });
    const vettedBefore = (await api.views.vettedPackages.states())!.flatMap((s) => s.packages.map((x) => x.packageId));
    const outcome = await uploadDar(vscode.Uri.file(shared()), { mode: 'upload', vet: true });
    assert.equal(outcome.error, undefined);
    const main = outcome.result!.packages.find((x) => x.main)!;
    assert.ok(!vettedBefore.includes(main.id));
    assert.equal(outcome.result!.validatedFirst, true, 'validated before uploading');
    assert.match(prompts.last().text, /^splice-api-token-holding-v1-1\.0\.0\.dar uploaded to E2E DAR upload: \d+ packages?, \d+ new; \d+ vetted on 1 synchronizer\.$/);
    const report = (await vscode.workspace.openTextDocument(outcome.reportUri!)).getText();
    assert.match(report, new RegExp(`^\\| splice-api-token-holding-v1 \\(main\\) \\| 1\\.0\\.0 \\| \`${main.id}\` \\| added \\|$`, 'm'));
    assert.match(report, /^- \*\*Topology serial:\*\* (\d+) → \d+$/m);
    await waitFor(
      async () => {
        const state = api.packages.stateOf(api.connections.connectionFor(profile()));
        return state.state === 'ready' && state.packageIds.includes(main.id);
      },
      { what: 'the Packages view (the package store) to list the uploaded package' },
    );
    const vettedAfter = (await api.views.vettedPackages.states())!.flatMap((s) => s.packages.map((x) => x.packageId));
    assert.ok(vettedAfter.includes(main.id), 'Vetted Packages shows the uploaded package');
  });

  it('a file that is not a DAR: refused by the participant with its code, shown with the hint', async () => {
    const { prompts } = await scripted();
    const bad = path.join(workspaceDir(), 'not-a.dar');
    fs.writeFileSync(bad, 'this is not a zip');
    try {
      const outcome = await uploadDar(vscode.Uri.file(bad), { mode: 'upload', vet: true });
      assert.ok(outcome.error instanceof Error && (outcome.error as CantonApiError).code === 'INVALID_DAR', `expected INVALID_DAR, got ${String(outcome.error)}`);
      assert.match(prompts.last().text, /^Uploading not-a\.dar on E2E DAR upload failed: INVALID_DAR: Dar file is corrupt/);
      assert.equal(prompts.last().severity, 'error');
    } finally {
      fs.rmSync(bad, { force: true });
    }
  });
});

describe('Add Connection: a sandbox secret names its participant in every token', function () {
  this.timeout(60_000);

  it('without a participant id nothing is sent (no-audience, with what to set); with it, tokens carry its audience', async () => {
    const api = (await scripted()).api;
    const secret = newSecret('e2e-wizard-hs256');
    const p = await startParticipant({ seed: 32, auth: { secret } });
    const previousActive = api.connections.profiles.activeId();
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', {
      name: 'E2E no participant id',
      url: p.url,
      auth: 'sandbox-secret',
      tokenForm: 'audience',
      userId: 'demo-admin',
    });
    try {
      await vscode.commands.executeCommand('cantonLedger.token.set', profile.id, secret);
      await vscode.commands.executeCommand('cantonLedger.connections.connect', profile.id);
      await waitFor(() => api.connections.connection(profile.id)!.state.state === 'error', { what: 'the connect failed', timeoutMs: 20_000 });
      const failed = api.connections.connection(profile.id)!.state;
      const error = failed.state === 'error' ? (failed.error as AuthError) : undefined;
      assert.equal(error?.failure, 'no-audience');
      assert.match(error?.hint ?? '', /participant id/);
      const saved = api.connections.profiles.get(profile.id)!;
      await api.connections.profiles.save({ ...saved, participantId: p.participantId });
      await vscode.commands.executeCommand('cantonLedger.connections.connect', profile.id);
      await waitFor(() => api.connections.connection(profile.id)!.state.state === 'connected', { what: 'the connection connected', timeoutMs: 20_000 });
      assert.equal(api.connections.connection(profile.id)?.tokens?.claims()?.aud, `https://daml.com/jwt/aud/participant/${p.participantId}`);
    } finally {
      api.connections.disconnect(api.connections.connection(profile.id)!);
      await vscode.commands.executeCommand('cantonLedger.token.clear', profile.id, { silent: true });
      await api.connections.profiles.remove(profile.id);
      await api.connections.profiles.setActive(previousActive);
      await p.close();
    }
  });
});
