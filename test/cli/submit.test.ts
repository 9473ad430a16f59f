import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, writeJson } from './harness';

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';
const TX_LINE = /^Transaction (1220[0-9a-f]{64}) at offset (\d+): (.+)$/m;

describe('cli: submit', () => {
  let participant: DemoParticipant;
  let env: Record<string, string>;
  let dir: string;
  let bank: string;
  let alice: string;
  let bob: string;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 7 });
    env = { CANTON_LEDGER_URL: participant.url };
    dir = mkdtempSync(join(tmpdir(), 'cli-submit-'));
    ({ bank, alice, bob } = participant.parties);
  });
  after(() => participant.close());

  const iou = (owner: string, currency: string, amount = '100') => ({ issuer: bank, owner, currency, amount, observers: [] });
  const commandsFile = (name: string, commandId: string, actAs: string[], commands: unknown[]) => writeJson(dir, `${name}.commands.json`, { commandId, actAs, commands });
  /** The contract ids of the `created` event lines of human output. */
  const createdIds = (stdout: string, template = IOU) => [...stdout.matchAll(new RegExp(`^  created +${template}  (00[0-9a-f]+)$`, 'gm'))].map((m) => m[1]);

  /** Transactions with this command id, read back through the CLI. */
  async function transactionsWithCommandId(commandId: string): Promise<number> {
    const r = await cli(['updates', '--json', '--any-party'], env);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout
      .trimEnd()
      .split('\n')
      .filter((l) => JSON.parse(l).update.Transaction?.value.commandId === commandId).length;
  }

  it('submits a create and prints the transaction and its events', async () => {
    const file = commandsFile('create', 'cli-create-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'USD') } }]);
    const r = await cli(['submit', file], env);
    assert.equal(r.status, 0, r.stderr);
    const [, updateId, offset, counts] = TX_LINE.exec(r.stdout)!;
    assert.equal(counts, '1 created');
    assert.equal(Number(offset), participant.state.ledgerEnd);
    assert.equal(createdIds(r.stdout).length, 1);
    assert.match(updateId, /^1220/);

    const events = await cli(['events', createdIds(r.stdout)[0]], env);
    assert.match(events.stdout, /^  status: +active$/m);
  });

  it('submits an exercise and shows it with what it caused (the ledger-effects tree): "2 created, 1 exercised"', async () => {
    const created = await cli(['submit', commandsFile('to-split', 'cli-create-2', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'EUR') } }])], env);
    const [cid] = createdIds(created.stdout);
    const split = { ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Split', choiceArgument: { splitAmount: '40' } } };
    const r = await cli(['submit', commandsFile('split-eur', 'cli-split-eur', [alice], [split])], env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(TX_LINE.exec(r.stdout)![3], '2 created, 1 exercised');
    assert.match(r.stdout, new RegExp(`^  exercised +${IOU}  ${cid}  Iou_Split \\(consuming\\)$`, 'm'));

    // Exercising the archived contract again is a Daml error, reported with its code and hint.
    const againFile = commandsFile('split-again', 'cli-split-again', [alice], [split]);
    const again = await cli(['submit', againFile], env);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /^error: CONTRACT_NOT_FOUND: /m);
    assert.match(again.stderr, /^hint: /m);
    // The cause is pointed at in the file: the archived contract's id, as file:line:col.
    const text = readFileSync(againFile, 'utf8');
    const before = text.slice(0, text.indexOf(`"${cid}"`)).split('\n');
    const place = `${againFile}:${before.length}:${before[before.length - 1].length + 1}`;
    assert.ok(again.stderr.startsWith(`${place}: error: CONTRACT_NOT_FOUND: Contract could not be found with id ${cid} (contract id ${cid})\n`), again.stderr);
  });

  it('submits a create-and-exercise and an exercise-by-key', async () => {
    const split = commandsFile('split', 'cli-split-1', [bank], [
      { CreateAndExerciseCommand: { templateId: IOU, createArguments: iou(bank, 'GBP', '100'), choice: 'Iou_Split', choiceArgument: { splitAmount: '30' } } },
    ]);
    const r = await cli(['submit', split], env);
    assert.equal(r.status, 0, r.stderr);
    // The created-and-consumed Iou is transient: the ledger-effects tree shows it, its exercise and the two halves.
    assert.equal(TX_LINE.exec(r.stdout)![3], '3 created, 1 exercised');

    const asset = { owner: alice, id: 'cli-asset-1', description: 'Red bicycle' };
    assert.equal((await cli(['submit', commandsFile('asset', 'cli-asset-1', [alice], [{ CreateCommand: { templateId: ASSET, createArguments: asset } }])], env)).status, 0);
    const rename = commandsFile('rename', 'cli-rename-1', [alice], [
      { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: alice, _2: 'cli-asset-1' }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'Green bicycle' } } },
    ]);
    const renamed = await cli(['submit', rename], env);
    assert.equal(renamed.status, 0, renamed.stderr);
    assert.equal(TX_LINE.exec(renamed.stdout)![3], '1 created, 1 exercised');
    const events = await cli(['events', createdIds(renamed.stdout, ASSET)[0]], env);
    assert.match(events.stdout, /"description": "Green bicycle"/);
  });

  it('prints the raw response with --json', async () => {
    const file = commandsFile('json', 'cli-json-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(bob, 'JPY') } }]);
    const r = await cli(['submit', file, '--json'], env);
    assert.equal(r.status, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.transaction.commandId, 'cli-json-1');
    assert.equal(body.transaction.events[0].CreatedEvent.createArgument.currency, 'JPY');
  });

  it('answers a duplicate command id with "already executed" and the transaction it executed as (exit 0)', async () => {
    const file = commandsFile('dup', 'cli-dup-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'CAD') } }]);
    const first = await cli(['submit', file], env);
    assert.equal(first.status, 0);
    const end = participant.state.ledgerEnd;
    const r = await cli(['submit', file], env);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`^Already executed: commandId "cli-dup-1" was executed before \\(completed at offset ${end}\\); it was not executed again\\.$`, 'm'));
    // The transaction of the first submission, read at the offset the DUPLICATE_COMMAND error names.
    assert.equal(TX_LINE.exec(r.stdout)![1], TX_LINE.exec(first.stdout)![1]);
    assert.equal(TX_LINE.exec(r.stdout)![2], String(end));
    // Not executed again: the rejection's completion took the only new offset.
    assert.equal(participant.state.ledgerEnd, end + 1);
    assert.equal(participant.state.entries.filter((e) => e.offset > end && e.kind === 'transaction').length, 0);

    const json = await cli(['submit', file, '--json'], env);
    assert.equal(json.status, 0);
    assert.equal(JSON.parse(json.stdout).transaction.updateId, TX_LINE.exec(first.stdout)![1]);
  });

  it('refuses an invalid file with file:line:col lines and submits nothing', async () => {
    const file = join(dir, 'broken.commands.json');
    writeJson(dir, 'broken.commands.json', { actAs: [bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'USD') } }] });
    const end = participant.state.ledgerEnd;
    const r = await cli(['submit', file], env);
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^${file.replace(/[.]/g, '\\.')}:1:1: error: Missing required field "commandId"\\..* \\[missing-command-id\\]$`, 'm'));
    assert.match(r.stderr, /not submitted/);
    assert.equal(participant.state.ledgerEnd, end);
  });

  it('refuses a placeholder left in a Daml value ("<Text>", "<Numeric 10>"), checked against the participant\'s packages, and submits nothing', async () => {
    const file = commandsFile('placeholders', 'cli-placeholders-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, '<Text>', '<Numeric 10>') } }]);
    const end = participant.state.ledgerEnd;
    for (const args of [[], ['--preview'], ['--dry-validate']]) {
      const r = await cli(['submit', file, ...args], env);
      assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
      const at = (text: string) => new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+: error: Fill in this ${text}: "<${text}>" is a placeholder\\. \\[placeholder\\]$`, 'm');
      assert.match(r.stderr, at('Text'));
      assert.match(r.stderr, at('Numeric 10'));
      assert.match(r.stderr, /not submitted: fix the errors above/);
    }
    assert.equal(participant.state.ledgerEnd, end);
  });

  it('only validates with --dry-validate', async () => {
    const file = commandsFile('dry', 'cli-dry-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'USD') } }]);
    const end = participant.state.ledgerEnd;
    const r = await cli(['submit', file, '--dry-validate'], env);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /valid; not submitted/);
    assert.equal(participant.state.ledgerEnd, end);
  });

  it('reports an unknown outcome with the safe retry, which then finds the command already submitted', async () => {
    const file = commandsFile('lost', 'cli-lost-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'XAU', '7') } }]);
    participant.faults.submit = { dropResponse: true, times: 1 };
    const argv = ['submit', file];
    const lost = await cli(argv, env);
    assert.equal(lost.status, 3, lost.stderr);
    assert.equal(lost.stdout, '');
    assert.match(lost.stderr, /^error: outcome UNKNOWN: ECONNRESET: /m);
    assert.match(lost.stderr, /^Command "cli-lost-1" may or may not have executed/m);
    // The exact command to run again, and what the retry will answer if the first attempt went through.
    assert.match(lost.stderr, new RegExp(`^  canton-ledger submit ${file.replace(/[.]/g, '\\.')}$`, 'm'));
    assert.match(lost.stderr, /the retry answers "already executed" with its transaction/);
    // The CLI did not retry by itself: the fault dropped exactly one submission, which executed once.
    assert.equal(await transactionsWithCommandId('cli-lost-1'), 1);

    // The printed retry is the answer the user waits for: executed once, here is its transaction.
    const retry = await cli(argv, env);
    assert.equal(retry.status, 0, retry.stderr);
    assert.match(retry.stderr, /^Already executed: commandId "cli-lost-1"/m);
    assert.match(retry.stdout, TX_LINE);
    assert.equal(await transactionsWithCommandId('cli-lost-1'), 1);
  });

  it('never prints a password from --url, also not in the retry line', async () => {
    const file = commandsFile('lost-url', 'cli-lost-url', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'XPT', '2') } }]);
    const url = participant.url.replace('://', '://ops:pw-Secret-4711@');
    participant.faults.submit = { dropResponse: true, times: 1 };
    const r = await cli(['--url', url, '--verbose', 'submit', file], {});
    assert.equal(r.status, 3, r.stderr);
    assert.match(r.stderr, /outcome UNKNOWN/);
    assert.doesNotMatch(r.stdout + r.stderr, /pw-Secret-4711/);
    assert.match(r.stderr, /^  canton-ledger --url '?http:\/\/ops:\[REDACTED\]@127\.0\.0\.1:\d+'? --verbose submit /m);
    assert.match(r.stderr, /put them back, or give the URL in CANTON_LEDGER_URL/);
  });

  it('on Ctrl-C during a submission, exits 130 and reports the outcome as unknown', async () => {
    const file = commandsFile('interrupted', 'cli-interrupted-1', [bank], [{ CreateCommand: { templateId: IOU, createArguments: iou(alice, 'XAG', '3') } }]);
    const end = participant.state.ledgerEnd;
    participant.faults.submit = { delayMs: 10_000, times: 1 };
    const interrupt = new AbortController();
    const running = cli(['submit', file], env, interrupt.signal);
    // The participant executes the command before it delays the answer.
    while (participant.state.ledgerEnd === end) await new Promise((r) => setTimeout(r, 5));
    interrupt.abort();
    const r = await running;
    assert.equal(r.status, 130);
    assert.match(r.stderr, /^error: outcome UNKNOWN: CANCELLED: /m);
    assert.match(r.stderr, /canton-ledger submit /);
  });
});
