// Previewing commands: the client's prepare against the demo participant, and the decoder reading
// the participant's PreparedTransaction protobuf back.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../../src/core/api/client';
import { AuthError, CantonApiError, ProtocolError } from '../../../src/core/errors';
import type * as wire from '../../../src/core/models/wire';
import { decodePreparedTransaction, readPreparedAnswer } from '../../../src/core/preview';
import { walkNodes } from '../../../src/core/preview/model';
import { HASH_MISMATCH_WARNING, previewCounts, previewDocument, previewSummary, previewText, PREVIEW_CAVEAT } from '../../../src/core/preview/render';
import { previewFailureAdvice } from '../../../src/core/submit/prepare';
import { prepareRequestOf } from '../../../src/core/submit/submission';
import type { DemoParticipant } from '../../../src/participant';
import type { ApiVersion } from '../../../src/participant/versions';
import { startCheckedParticipant } from '../../support/specCheck';

const IOU = '#demo-iou:Iou:Iou';

function iou(issuer: string, owner: string, amount = '100'): wire.Command {
  return { CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } } };
}
function transfer(contractId: string, newOwner: string): wire.Command {
  return { ExerciseCommand: { templateId: IOU, contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner } } };
}
function file(actAs: string[], commands: wire.Command[], extra: Partial<wire.JsCommands> = {}): wire.JsPrepareSubmissionRequest {
  return prepareRequestOf({ commands, commandId: `preview-${randomUUID()}`, actAs, ...extra });
}

describe('preview (interactive-submission prepare)', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async () => {
    p = await startCheckedParticipant({ port: 0, seed: 21 });
    client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
  });
  after(() => p.close());

  async function activeIou(owner: string): Promise<string> {
    const r = await client.submitAndWaitForTransaction({ commands: { commands: [iou(p.parties.bank, owner)], commandId: `iou-${randomUUID()}`, actAs: [p.parties.bank] } });
    return r.transaction.events.find((e) => e.kind === 'created')!.contractId;
  }

  it('a choice exercised through an interface: the exercise node names the interface and the template of the contract', async () => {
    const contractId = await activeIou(p.parties.alice);
    const command: wire.Command = { ExerciseCommand: { templateId: '#demo-holding:Holding:Holding', contractId, choice: 'Holding_Transfer', choiceArgument: { newOwner: p.parties.bob } } };
    const { raw } = await client.prepare(file([p.parties.alice], [command]));
    const [root] = decodePreparedTransaction(raw.preparedTransaction).roots;
    assert.equal(root.kind, 'exercise');
    assert.equal(root.choice, 'Holding_Transfer');
    assert.match(root.templateId ?? '', /^[0-9a-f]{64}:Iou:Iou$/);
    assert.match(root.interfaceId ?? '', /^[0-9a-f]{64}:Holding:Holding$/);
    assert.deepEqual(root.choiceArgument, { newOwner: p.parties.bob });
  });

  it('shows what a transfer would do: the tree, who sees each node, the input contract', async () => {
    const contractId = await activeIou(p.parties.alice);
    const request = file([p.parties.alice], [transfer(contractId, p.parties.bob)]);
    const end = await client.ledgerEnd();
    const { raw } = await client.prepare(request);
    assert.equal(await client.ledgerEnd(), end, 'prepare writes nothing');
    assert.ok(p.state.activeContract(contractId), 'the input is still active');

    const preview = decodePreparedTransaction(raw.preparedTransaction);
    assert.equal(preview.commandId, request.commandId);
    assert.deepEqual(preview.actAs, [p.parties.alice]);
    assert.equal(raw.hashingSchemeVersion, 'HASHING_SCHEME_VERSION_V2');
    const [root] = preview.roots;
    assert.equal(root.kind, 'exercise');
    assert.equal(root.choice, 'Iou_Transfer');
    assert.equal(root.consuming, true);
    assert.equal(root.contractId, contractId);
    assert.deepEqual(root.choiceArgument, { newOwner: p.parties.bob });
    assert.match(root.templateId!, /^[0-9a-f]{64}:Iou:Iou$/);
    // A consuming exercise is seen by the contract's stakeholders and the actors.
    assert.deepEqual(root.informees, [p.parties.alice, p.parties.bank].sort());
    const [child] = root.children;
    assert.equal(child.kind, 'create');
    assert.deepEqual(child.argument, { issuer: p.parties.bank, owner: p.parties.bob, currency: 'USD', amount: '100.0000000000', observers: [] });
    assert.deepEqual(child.informees, [p.parties.bank, p.parties.bob].sort());
    assert.equal(root.exerciseResult, child.contractId, 'the choice returns the new contract');
    assert.deepEqual(preview.inputContracts.map((c) => c.contractId), [contractId]);
    assert.deepEqual(preview.inputContracts[0].argument, { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '100.0000000000', observers: [] });
    assert.deepEqual(previewCounts(preview), { created: 1, archived: 1, exercised: 1, fetched: 0 });

    assert.equal(p.state.activeContract(child.contractId!), undefined, 'the new contract exists only in the preview');
  });

  it('leaves the participant exactly as it was: no update, no contract, the id generator unmoved', async () => {
    const contractId = await activeIou(p.parties.alice);
    const before = { end: p.state.ledgerEnd, contracts: p.state.contracts.size, ids: p.state.ids.state };
    await client.prepare(file([p.parties.alice], [transfer(contractId, p.parties.bob)]));
    assert.deepEqual({ end: p.state.ledgerEnd, contracts: p.state.contracts.size, ids: p.state.ids.state }, before);
  });

  it('renders a document and a text that say nothing was submitted, with the hash in hex', async () => {
    const request = file([p.parties.bank], [iou(p.parties.bank, p.parties.charlie, '7')]);
    const { raw } = await client.prepare(request);
    const { preview, hash } = readPreparedAnswer(raw);
    const doc = previewDocument({ preview, hash, raw, participant: 'demo', file: 'x.commands.json' });
    assert.equal(doc.preview, PREVIEW_CAVEAT);
    assert.equal(doc.hash, Buffer.from(raw.preparedTransactionHash, 'base64').toString('hex'));
    assert.match(String(doc.hash), /^[0-9a-f]{64}$/);
    // The template as the file names it, and the exact package id beside it.
    assert.deepEqual((doc.transaction as Record<string, unknown>[]).map((n) => [n.create, n.templateId]), [['#demo-iou:Iou:Iou', preview.roots[0].templateId]]);
    assert.match(String(preview.roots[0].templateId), /^[0-9a-f]{64}:Iou:Iou$/);
    assert.equal(previewSummary(preview), 'Would create 1 contract, archive 0, exercise 0 choices; depends on 0 input contracts');
    assert.match(String(doc.hashCheck), /^hash verified \(V2\)/);
    assert.equal(doc.warning, undefined);
    const text = previewText({ preview, hash, raw, participant: 'demo' });
    assert.match(text, /create #demo-iou:Iou:Iou /);
    assert.ok(text.includes(`seen by ${[p.parties.bank, p.parties.charlie].sort().join(', ')}`));
    assert.ok(text.trimEnd().endsWith(PREVIEW_CAVEAT));
  });

  it('a hash that does not match is said first, in the document and the text: do not sign', async () => {
    const { raw } = await client.prepare(file([p.parties.bank], [iou(p.parties.bank, p.parties.charlie, '8')]));
    const forged = { ...raw, preparedTransactionHash: Buffer.alloc(32, 1).toString('base64') };
    const { preview, hash } = readPreparedAnswer(forged);
    assert.equal(hash.kind, 'mismatch');
    const doc = previewDocument({ preview, hash, raw: forged, participant: 'demo' });
    assert.equal(Object.keys(doc)[0], 'warning');
    assert.equal(doc.warning, HASH_MISMATCH_WARNING);
    assert.match(String(doc.hashCheck), /^HASH DOES NOT MATCH \(V2\): the participant sent (01){32}, the transaction and its metadata hash to [0-9a-f]{64}; do not sign it$/);
    assert.ok(previewText({ preview, hash, raw: forged, participant: 'demo' }).startsWith(HASH_MISMATCH_WARNING));
  });

  it('refuses several commands from 3.4 on, and says to preview each alone', async () => {
    const request = file([p.parties.bank], [iou(p.parties.bank, p.parties.alice), iou(p.parties.bank, p.parties.bob)]);
    const e = await client.prepare(request).catch((x: unknown) => x);
    assert.ok(e instanceof CantonApiError, String(e));
    assert.equal(e.code, 'FAILED_TO_PREPARE_TRANSACTION');
    assert.equal(e.status, 400);
    const advice = previewFailureAdvice(e, request);
    assert.match(advice!.todo, /preview each command alone/);
    assert.match(advice!.why, /has 2/);
    assert.equal(previewFailureAdvice(e, { ...request, commands: [request.commands[0]] }), undefined, 'one command: the cause itself says why');
  });

  it('a rejected interpretation is the Canton error, with nothing written', async () => {
    const end = await client.ledgerEnd();
    const e = await client.prepare(file([p.parties.alice], [iou(p.parties.bank, p.parties.alice)])).catch((x: unknown) => x);
    assert.ok(e instanceof CantonApiError);
    assert.equal(e.code, 'DAML_AUTHORIZATION_ERROR');
    assert.equal(await client.ledgerEnd(), end);
  });

  for (const apiVersion of ['3.3', '3.4.11'] as ApiVersion[]) {
    it(`on ${apiVersion}: sends the fields that release's decoder requires, and prepares`, async () => {
      const old = await startCheckedParticipant({ port: 0, seed: 3, apiVersion });
      try {
        const c = new LedgerClient({ baseUrl: old.url, timeoutMs: 10_000 });
        const cmds = [iou(old.parties.bank, old.parties.alice, '1'), ...(apiVersion === '3.3' ? [iou(old.parties.bank, old.parties.bob, '2')] : [])];
        const { request, raw } = await c.prepare(file([old.parties.bank], cmds));
        assert.equal(request.verboseHashing, false);
        assert.equal(request.userId, '');
        assert.equal(request.synchronizerId, '');
        // 3.3 prepares several commands (the single-command rule came with 3.4).
        assert.equal(decodePreparedTransaction(raw.preparedTransaction).roots.length, cmds.length);
      } finally {
        await old.close();
      }
    });
  }

  describe('with auth', () => {
    let secured: DemoParticipant;
    before(async () => (secured = await startCheckedParticipant({ port: 0, seed: 5, auth: { secret: 'preview-secret' } })));
    after(() => secured.close());
    const as = (user: string) => new LedgerClient({ baseUrl: secured.url, timeoutMs: 10_000, token: () => secured.mintToken(user) });

    it('needs only ReadAs for the actAs parties: a read-only user can preview what Alice would do', async () => {
      const { raw } = await as('auditor').prepare(file([secured.parties.alice], [{ CreateCommand: { templateId: IOU, createArguments: { issuer: secured.parties.alice, owner: secured.parties.alice, currency: 'USD', amount: '1', observers: [] } } }]));
      assert.equal(decodePreparedTransaction(raw.preparedTransaction).roots[0].kind, 'create');
    });

    it('without ReadAs it is refused, and the advice names the parties and the right', async () => {
      const request = file([secured.parties.bob], [iou(secured.parties.bob, secured.parties.bob)]);
      const e = await as('alice').prepare(request).catch((x: unknown) => x);
      assert.ok(e instanceof AuthError && e.failure === 'permission-denied', String(e));
      const advice = previewFailureAdvice(e, request)!;
      assert.ok(advice.why.includes(secured.parties.bob));
      assert.match(advice.todo, /CanReadAs/);
    });
  });

  it('a preparedTransaction that is not the protobuf is a protocol error naming the field', () => {
    assert.throws(() => decodePreparedTransaction(Buffer.from('not a protobuf at all').toString('base64')), (e: unknown) => e instanceof ProtocolError && e.field === 'preparedTransaction');
  });

  it('walks nested nodes in execution order', async () => {
    const { raw } = await client.prepare(
      file([p.parties.bank], [{ CreateAndExerciseCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.bank, currency: 'GBP', amount: '5', observers: [] }, choice: 'Iou_Split', choiceArgument: { splitAmount: '2' } } }]),
    );
    const nodes = [...walkNodes(decodePreparedTransaction(raw.preparedTransaction).roots)];
    assert.deepEqual(nodes.map((n) => n.kind), ['create', 'exercise', 'create', 'create']);
    assert.deepEqual(nodes[1].exerciseResult, { _1: nodes[2].contractId, _2: nodes[3].contractId });
  });
});
