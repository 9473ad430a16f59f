import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LedgerChange } from '../../src/core/ledger/state';
import { parseCommandArgs } from '../../src/cli/args';
import type { Command } from '../../src/cli/command';
import { submitCommand } from '../../src/cli/commands/submit';
import { uploadDarCommand } from '../../src/cli/commands/uploadDar';
import { vetCommand } from '../../src/cli/commands/vet';
import { CliContext } from '../../src/cli/context';
import { type DemoParticipant } from '../../src/participant/index';
import { DAR_DIR, DARS, requireDarBytes } from '../support/dars';
import { startCheckedParticipant } from '../support/specCheck';
import { Capture, writeJson } from './harness';

/**
 * The CLI's writes go through its connection's `write`, as the editor's do: a connected connection's
 * ledger state moves as each write did (which no CLI output shows, so the commands run on a context
 * the test holds).
 */
describe('cli: writes go through the connection', () => {
  let participant: DemoParticipant;
  let dir: string;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 41, apiVersion: '3.5' });
    dir = mkdtempSync(join(tmpdir(), 'cli-writes-'));
  });
  after(() => participant.close());

  /** A context on the participant whose connection is connected, and what its ledger state announces. */
  async function connectedContext(): Promise<{ ctx: CliContext; changes: LedgerChange[]; next: (wanted: (c: LedgerChange) => boolean) => Promise<void> }> {
    const ctx = new CliContext({ stdout: new Capture(), stderr: new Capture() }, {}, { url: participant.url, urlGiven: true, json: false, verbose: false }, []);
    await ctx.connection().connect();
    const changes: LedgerChange[] = [];
    const waiting: { wanted: (c: LedgerChange) => boolean; resolve: () => void }[] = [];
    ctx.connection().onDidChangeLedger((c) => {
      changes.push(c);
      for (const w of waiting.filter((x) => x.wanted(c))) w.resolve();
    });
    const next = (wanted: (c: LedgerChange) => boolean) => (changes.some(wanted) ? Promise.resolve() : new Promise<void>((r) => waiting.push({ wanted, resolve: r })));
    return { ctx, changes, next };
  }

  async function runCommand(ctx: CliContext, command: Command, argv: string[]): Promise<void> {
    const status = await command.run(ctx, parseCommandArgs(argv, command.options, command.name));
    assert.equal(status, 0, (ctx.io.stderr as Capture).text);
  }

  it('submit: the ledger end takes the offset of the transaction it made', async () => {
    const { ctx, changes } = await connectedContext();
    const before = ctx.connection().ledger!.ledgerEnd!;
    const { bank, alice } = participant.parties;
    const file = writeJson(dir, 'create.commands.json', {
      commandId: 'cli-writes-submit',
      actAs: [bank],
      commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '5', observers: [] } } }],
    });
    await runCommand(ctx, submitCommand, [file]);
    const offset = Number(/ at offset (\d+):/.exec((ctx.io.stdout as Capture).text)![1]);
    assert.ok(offset > before);
    assert.equal(ctx.connection().ledger!.ledgerEnd, offset);
    // (Reading the packages to check the file reads the vetting state too: that change is not the write's.)
    assert.deepEqual(changes.filter((c) => c.ledgerEnd)[0], { ledgerEnd: { previous: before, current: offset } });
    ctx.connection().dispose();
  });

  it('vet: an apply reads the vetting state again; the check before it (a dry run) does not', async () => {
    const { ctx, changes, next } = await connectedContext();
    const file = writeJson(dir, 'upgrade.vetting.json', { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] });
    await runCommand(ctx, vetCommand, [file, '--dry-run']);
    assert.deepEqual(changes, [], 'a dry run writes nothing');
    await runCommand(ctx, vetCommand, [file]);
    await next((c) => c.vetting === true);
    assert.equal(ctx.connection().ledger!.vetting.state, 'ready');
    ctx.connection().dispose();
  });

  it('upload-dar: an upload announces new packages; a validation does not', async function () {
    requireDarBytes(this, DARS.holding);
    const { ctx, changes, next } = await connectedContext();
    const dar = resolve(DAR_DIR, DARS.holding);
    await runCommand(ctx, uploadDarCommand, [dar, '--validate-only']);
    assert.deepEqual(changes, [], 'a validation writes nothing');
    await runCommand(ctx, uploadDarCommand, [dar]);
    await next((c) => c.packages === true);
    await next((c) => c.vetting === true);
    ctx.connection().dispose();
  });
});
