// The prepared transaction's hash (Canton's hashing scheme V2): computed by the core, checked against
// the official implementation in @canton-network/core-tx-visualizer (the oracle, a devDependency
// only), over the demo participant's prepares and over hand-built transactions with every node and
// value kind; and the verdict a preview shows (verified, mismatch, cannot verify).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { PreparedTransaction, type Create, type DamlTransaction_Node, type Value } from '@canton-network/core-ledger-proto';
import { LedgerClient } from '../../../src/core/api/client';
import type * as wire from '../../../src/core/models/wire';
import { readPreparedAnswer } from '../../../src/core/preview';
import { preparedTransactionHashV2, verifyPreparedHash } from '../../../src/core/preview/hash';
import { prepareRequestOf } from '../../../src/core/submit/submission';
import type { DemoParticipant } from '../../../src/participant';
import { startCheckedParticipant } from '../../support/specCheck';

const IOU = '#demo-iou:Iou:Iou';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const decode = (base64: string) => PreparedTransaction.fromBinary(Buffer.from(base64, 'base64'));
const oracle = (message: PreparedTransaction) => hashPreparedTransaction(message, 'hex');

function iou(issuer: string, owner: string, amount = '100'): wire.Command {
  return { CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency: 'USD', amount, observers: [] } } };
}
function request(actAs: string[], commands: wire.Command[]): wire.JsPrepareSubmissionRequest {
  return prepareRequestOf({ commands, commandId: `hash-${randomUUID()}`, actAs });
}

describe('prepared transaction hash (scheme V2)', function () {
  this.timeout(30_000);

  describe("over the demo participant's prepares", () => {
    let p: DemoParticipant;
    let client: LedgerClient;
    before(async () => {
      p = await startCheckedParticipant({ port: 0, seed: 33 });
      client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
    });
    after(() => p.close());

    async function activeIou(owner: string): Promise<string> {
      const r = await client.submitAndWaitForTransaction({ commands: { commands: [iou(p.parties.bank, owner)], commandId: `iou-${randomUUID()}`, actAs: [p.parties.bank] } });
      return r.transaction.events.find((e) => e.kind === 'created')!.contractId;
    }

    const prepares: { name: string; commands: () => Promise<{ actAs: string; commands: wire.Command[] }> }[] = [
      { name: 'a create', commands: async () => ({ actAs: p.parties.bank, commands: [iou(p.parties.bank, p.parties.alice, '12.5')] }) },
      {
        name: 'a consuming exercise whose result is a ContractId, with an input contract',
        commands: async () => ({ actAs: p.parties.alice, commands: [{ ExerciseCommand: { templateId: IOU, contractId: await activeIou(p.parties.alice), choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } }] }),
      },
      {
        name: 'create-and-exercise: four nodes, a tuple of ContractIds as result',
        commands: async () => ({
          actAs: p.parties.bank,
          commands: [{ CreateAndExerciseCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner: p.parties.bank, currency: 'GBP', amount: '5', observers: [] }, choice: 'Iou_Split', choiceArgument: { splitAmount: '2' } } }],
        }),
      },
      {
        name: 'a choice exercised through an interface',
        commands: async () => ({
          actAs: p.parties.alice,
          commands: [{ ExerciseCommand: { templateId: '#demo-holding:Holding:Holding', contractId: await activeIou(p.parties.alice), choice: 'Holding_Transfer', choiceArgument: { newOwner: p.parties.charlie } } }],
        }),
      },
    ];

    for (const { name, commands } of prepares) {
      it(`${name}: the participant's hash is the official V2 hash, and the preview verifies it`, async () => {
        const { actAs, commands: cmds } = await commands();
        const { raw } = await client.prepare(request([actAs], cmds));
        const message = decode(raw.preparedTransaction);
        const official = await oracle(message);
        assert.equal(hex(preparedTransactionHashV2(message)), official, 'the core computes what the official library computes');
        assert.equal(Buffer.from(raw.preparedTransactionHash, 'base64').toString('hex'), official, 'the demo sends the real V2 hash');
        assert.deepEqual(readPreparedAnswer(raw).hash, { kind: 'verified', scheme: 'V2', hash: official });
      });
    }

    it('sends a seed for every create and exercise node, and types an exercise result as the choice returns it', async () => {
      const { raw } = await client.prepare(request([p.parties.alice], [{ ExerciseCommand: { templateId: IOU, contractId: await activeIou(p.parties.alice), choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } }]));
      const tx = decode(raw.preparedTransaction).transaction!;
      const seeded = new Map(tx.nodeSeeds.map((s) => [String(s.nodeId), s.seed]));
      assert.deepEqual([...seeded.keys()].sort(), tx.nodes.map((n) => n.nodeId).sort());
      for (const seed of seeded.values()) assert.equal(seed.length, 32);
      assert.equal(new Set([...seeded.values()].map(hex)).size, seeded.size, 'seeds differ');
      const exercise = tx.nodes.map((n) => (n.versionedNode.oneofKind === 'v1' ? n.versionedNode.v1.nodeType : undefined)).find((t) => t?.oneofKind === 'exercise');
      assert.ok(exercise?.oneofKind === 'exercise');
      assert.equal(exercise.exercise.exerciseResult?.sum.oneofKind, 'contractId', 'Iou_Transfer returns ContractId Iou, not Text');
    });

    it('gives each prepare fresh contract ids: the same command prepared twice creates two different ids, neither the one a submission then gets', async () => {
      const cmd = [iou(p.parties.bank, p.parties.alice, '3')];
      const createdId = async () => readPreparedAnswer((await client.prepare(request([p.parties.bank], cmd))).raw).preview.roots[0].contractId;
      const [first, second] = [await createdId(), await createdId()];
      assert.notEqual(first, second);
      const submitted = await client.submitAndWaitForTransaction({ commands: { commands: cmd, commandId: `iou-${randomUUID()}`, actAs: [p.parties.bank] } });
      const committed = submitted.transaction.events.find((e) => e.kind === 'created')!.contractId;
      assert.ok(committed !== first && committed !== second);
    });
  });

  describe('over hand-built transactions (every node and value kind)', () => {
    const cid = (n: number) => `00${n.toString(16).padStart(64, '0')}ca101220${'ab'.repeat(32)}`;
    const ident = { packageId: 'a'.repeat(64), moduleName: 'Deep.Module', entityName: 'Outer.Inner' };
    const v = (sum: Value['sum']): Value => ({ sum });
    const everyValue: Value = v({
      oneofKind: 'record',
      record: {
        recordId: ident,
        fields: [
          { label: 'unit', value: v({ oneofKind: 'unit', unit: {} }) },
          { label: 'bool', value: v({ oneofKind: 'bool', bool: true }) },
          { label: 'negative', value: v({ oneofKind: 'int64', int64: '-42' }) },
          { label: 'numeric', value: v({ oneofKind: 'numeric', numeric: '3.1400000000' }) },
          { label: 'timestamp', value: v({ oneofKind: 'timestamp', timestamp: '1767225600123456' }) },
          { label: 'date', value: v({ oneofKind: 'date', date: 20454 }) },
          { label: 'party', value: v({ oneofKind: 'party', party: 'Alice::1220abcd' }) },
          { label: 'text', value: v({ oneofKind: 'text', text: 'Grüße 🌍' }) },
          { label: 'cid', value: v({ oneofKind: 'contractId', contractId: cid(7) }) },
          { label: 'none', value: v({ oneofKind: 'optional', optional: {} }) },
          { label: 'someSome', value: v({ oneofKind: 'optional', optional: { value: v({ oneofKind: 'optional', optional: { value: v({ oneofKind: 'text', text: 'x' }) } }) } }) },
          { label: 'list', value: v({ oneofKind: 'list', list: { elements: [v({ oneofKind: 'int64', int64: '1' }), v({ oneofKind: 'int64', int64: '2' })] } }) },
          { label: 'textMap', value: v({ oneofKind: 'textMap', textMap: { entries: [{ key: 'k', value: v({ oneofKind: 'bool', bool: false }) }] } }) },
          { label: 'genMap', value: v({ oneofKind: 'genMap', genMap: { entries: [{ key: v({ oneofKind: 'party', party: 'Bob::1220ef' }), value: v({ oneofKind: 'unit', unit: {} }) }] } }) },
          { label: 'variant', value: v({ oneofKind: 'variant', variant: { variantId: ident, constructor: 'Some', value: v({ oneofKind: 'text', text: 'y' }) } }) },
          { label: 'variantNoId', value: v({ oneofKind: 'variant', variant: { constructor: 'Left', value: v({ oneofKind: 'unit', unit: {} }) } }) },
          { label: 'enum', value: v({ oneofKind: 'enum', enum: { enumId: ident, constructor: 'Red' } }) },
          { label: '', value: v({ oneofKind: 'record', record: { fields: [{ label: '', value: v({ oneofKind: 'text', text: 'unlabelled' }) }] } }) },
        ],
      },
    });
    const createOf = (contractId: string, argument: Value = everyValue): Create => ({ lfVersion: '2.1', contractId, packageName: 'pkg', templateId: ident, argument, signatories: ['Alice::1220abcd'], stakeholders: ['Alice::1220abcd', 'Bob::1220ef'] });
    const create = (id: string, contract: string, argument?: Value): DamlTransaction_Node => ({ nodeId: id, versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'create', create: createOf(contract, argument) } } } });
    function message(): PreparedTransaction {
      const seed = (n: number) => ({ nodeId: n, seed: Buffer.alloc(32, n) });
      return PreparedTransaction.create({
        transaction: {
          version: '2.1',
          roots: ['0', '5'],
          nodes: [
            {
              nodeId: '0',
              versionedNode: {
                oneofKind: 'v1',
                v1: {
                  nodeType: {
                    oneofKind: 'exercise',
                    exercise: {
                      lfVersion: '2.1',
                      contractId: cid(1),
                      packageName: 'pkg',
                      templateId: ident,
                      signatories: ['Alice::1220abcd'],
                      stakeholders: ['Alice::1220abcd'],
                      actingParties: ['Alice::1220abcd'],
                      interfaceId: { ...ident, entityName: 'Iface' },
                      choiceId: 'Go',
                      chosenValue: v({ oneofKind: 'unit', unit: {} }),
                      consuming: true,
                      children: ['1', '2', '3'],
                      exerciseResult: v({ oneofKind: 'contractId', contractId: cid(2) }),
                      choiceObservers: ['Carol::1220cc'],
                    },
                  },
                },
              },
            },
            create('1', cid(2)),
            { nodeId: '2', versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'fetch', fetch: { lfVersion: '2.1', contractId: cid(3), packageName: 'pkg', templateId: ident, signatories: ['Bob::1220ef'], stakeholders: ['Bob::1220ef'], actingParties: ['Alice::1220abcd'], interfaceId: ident } } } } },
            { nodeId: '3', versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'rollback', rollback: { children: ['4'] } } } } },
            create('4', cid(4), v({ oneofKind: 'unit', unit: {} })),
            { nodeId: '5', versionedNode: { oneofKind: 'v1', v1: { nodeType: { oneofKind: 'fetch', fetch: { lfVersion: '2.1', contractId: cid(5), packageName: 'pkg', templateId: ident, signatories: [], stakeholders: [], actingParties: [] } } } } },
          ],
          // Node 4 (created under a rollback) has no seed: a create's seed is optional.
          nodeSeeds: [seed(0), seed(1)],
        },
        metadata: {
          submitterInfo: { actAs: ['Alice::1220abcd', 'Bob::1220ef'], commandId: 'cmd-1' },
          synchronizerId: 'sync::1220aa',
          mediatorGroup: 3,
          transactionUuid: '6f1c2e0a-9a7e-4f0b-a1c2-000000000001',
          preparationTime: 1767225600000000n,
          minLedgerEffectiveTime: 1767225500000000n,
          inputContracts: [{ contract: { oneofKind: 'v1', v1: createOf(cid(1)) }, createdAt: 1767225000000000n, eventBlob: new Uint8Array() }],
          globalKeyMapping: [],
          maxRecordTime: 1767229200000000n,
        },
      });
    }

    it('computes what the official library computes', async () => {
      const m = message();
      assert.equal(hex(preparedTransactionHashV2(m)), await oracle(m));
    });

    it('every field is covered: changing any one changes the hash, as it does for the official library', async () => {
      const base = hex(preparedTransactionHashV2(message()));
      const edits: [string, (m: PreparedTransaction) => void][] = [
        ['a text deep in an argument', (m) => (((m.transaction!.nodes[1].versionedNode as { v1: { nodeType: { create: { argument: Value } } } }).v1.nodeType.create.argument.sum as { record: { fields: { value: Value }[] } }).record.fields[7].value = v({ oneofKind: 'text', text: 'Grüsse 🌍' }))],
        ['a node seed', (m) => (m.transaction!.nodeSeeds[0].seed = Buffer.alloc(32, 9))],
        ['the max ledger effective time', (m) => (m.metadata!.maxLedgerEffectiveTime = 1767225900000000n)],
        ['the mediator group', (m) => (m.metadata!.mediatorGroup = 4)],
        ['an input contract creation time', (m) => (m.metadata!.inputContracts[0].createdAt += 1n)],
        ['the order of the roots', (m) => m.transaction!.roots.reverse()],
      ];
      for (const [what, edit] of edits) {
        const m = message();
        edit(m);
        const mine = hex(preparedTransactionHashV2(m));
        assert.notEqual(mine, base, what);
        assert.equal(mine, await oracle(m), what);
      }
    });

    it('fields outside V2 (max record time, the node list order, event blobs) do not change the hash', () => {
      const base = hex(preparedTransactionHashV2(message()));
      const m = message();
      m.metadata!.maxRecordTime = 1n;
      m.transaction!.nodes.reverse();
      m.metadata!.inputContracts[0].eventBlob = Uint8Array.of(1, 2, 3);
      assert.equal(hex(preparedTransactionHashV2(m)), base);
    });
  });

  describe('the verdict', () => {
    let p: DemoParticipant;
    let raw: wire.JsPrepareSubmissionResponse;
    before(async () => {
      p = await startCheckedParticipant({ port: 0, seed: 34 });
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
      const created = await client.submitAndWaitForTransaction({ commands: { commands: [iou(p.parties.bank, p.parties.alice)], commandId: `iou-${randomUUID()}`, actAs: [p.parties.bank] } });
      const contractId = created.transaction.events.find((e) => e.kind === 'created')!.contractId;
      ({ raw } = await client.prepare(request([p.parties.alice], [{ ExerciseCommand: { templateId: IOU, contractId, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } }])));
    });
    after(() => p.close());

    it('a hash that is not the hash of the transaction shown is a mismatch, with both hashes', () => {
      const message = decode(raw.preparedTransaction);
      const computed = hex(preparedTransactionHashV2(message));
      const forged = Buffer.from(computed, 'hex');
      forged[0] ^= 1;
      assert.deepEqual(verifyPreparedHash(message, { ...raw, preparedTransactionHash: forged.toString('base64') }), { kind: 'mismatch', scheme: 'V2', expected: forged.toString('hex'), computed });
    });

    it('a transaction changed after hashing (another new owner) is a mismatch', () => {
      const message = decode(raw.preparedTransaction);
      const exercise = message.transaction!.nodes.find((n) => n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise')!;
      const x = (exercise.versionedNode as { v1: { nodeType: { exercise: { chosenValue: Value } } } }).v1.nodeType.exercise;
      x.chosenValue = v({ oneofKind: 'record', record: { fields: [{ label: 'newOwner', value: v({ oneofKind: 'party', party: p.parties.charlie }) }] } });
      const tampered = Buffer.from(PreparedTransaction.toBinary(message)).toString('base64');
      const verdict = readPreparedAnswer({ ...raw, preparedTransaction: tampered }).hash;
      assert.equal(verdict.kind, 'mismatch');
    });

    it('another hashing scheme cannot be verified, and says which', () => {
      const verdict = readPreparedAnswer({ ...raw, hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V4' as wire.HashingSchemeVersion }).hash;
      assert.equal(verdict.kind, 'cannot-verify');
      assert.equal(verdict.scheme, 'V4');
      assert.match(verdict.kind === 'cannot-verify' ? verdict.reason : '', /hashed with scheme V4; this client computes schemes V2 and V3/);
    });

    it('an exercise without its seed cannot be hashed: cannot verify, naming the node (never verified)', () => {
      const message = decode(raw.preparedTransaction);
      const exerciseId = message.transaction!.nodes.find((n) => n.versionedNode.oneofKind === 'v1' && n.versionedNode.v1.nodeType.oneofKind === 'exercise')!.nodeId;
      message.transaction!.nodeSeeds = message.transaction!.nodeSeeds.filter((s) => String(s.nodeId) !== exerciseId);
      const verdict = verifyPreparedHash(message, raw);
      assert.equal(verdict.kind, 'cannot-verify');
      assert.match(verdict.kind === 'cannot-verify' ? verdict.reason : '', new RegExp(`^node ${exerciseId}: .*without a node seed`));
    });
  });
});

function v(sum: Value['sum']): Value {
  return { sum };
}
