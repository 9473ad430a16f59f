// The prepared transaction's hash under Canton's hashing schemes V2 and V3, checked against Canton's own
// reference implementation (../shared/canton-api/hashing/, run here at test time, never copied into the
// project) and, for V2, against the official visualizer: over the demo participant's prepares (unkeyed:
// V2; keyed creates and exercises, by key or by contract id: V3) and over hand-built transactions with
// every keyed node (keyed creates, exercises and fetches by key, lookups that find a contract and that
// do not, keyed input contracts, a max record time). Then what the preview makes of it: V3 verified,
// a scheme this client does not know never verified and never "do not sign".
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { hashPreparedTransaction } from '@canton-network/core-tx-visualizer';
import { PreparedTransaction, type Create, type DamlTransaction_Node, type Exercise, type Fetch, type Value } from '@canton-network/core-ledger-proto';
import { LedgerClient } from '../../../src/core/api/client';
import type * as wire from '../../../src/core/models/wire';
import { decodePreparedTransaction, readPreparedAnswer } from '../../../src/core/preview';
import { HashEncodingError, preparedTransactionHash, verifyPreparedHash, type HashingScheme } from '../../../src/core/preview/hash';
import { queryByKeyNode, readKeyFields, readQueryByKey, writeKeyFields, type GlobalKeyWithMaintainers, type NodeV1, type QueryByKey } from '../../../src/core/preview/keys';
import { walkNodes } from '../../../src/core/preview/model';
import { HASH_MISMATCH_WARNING, hashCheckLine, previewDocument, previewText } from '../../../src/core/preview/render';
import { prepareRequestOf } from '../../../src/core/submit/submission';
import type { DemoParticipant } from '../../../src/participant';
import { referenceHashes, requireHashReference, type ReferenceHash } from '../../support/hashReference';
import { startCheckedParticipant } from '../../support/specCheck';

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';
const ALICE = 'Alice::1220abcd';
const BOB = 'Bob::1220ef';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
/** What a client gets: the message read back from its bytes (the key fields as the reader keeps them). */
const roundTrip = (m: PreparedTransaction) => PreparedTransaction.fromBinary(PreparedTransaction.toBinary(m));
const ours = (m: PreparedTransaction, scheme: HashingScheme) => hex(preparedTransactionHash(m, scheme));
const v = (sum: Value['sum']): Value => ({ sum });

// ---------------------------------------------------------------- hand-built transactions

const cid = (n: number) => `00${n.toString(16).padStart(64, '0')}ca101220${'ab'.repeat(32)}`;
const ident = { packageId: 'a'.repeat(64), moduleName: 'Asset.Keyed', entityName: 'Asset' };
const keyOf = (n: number): GlobalKeyWithMaintainers => ({
  key: {
    templateId: ident,
    packageName: 'pkg',
    key: v({ oneofKind: 'record', record: { fields: [{ label: '_1', value: v({ oneofKind: 'party', party: ALICE }) }, { label: '_2', value: v({ oneofKind: 'text', text: `car-${n}` }) }] } }),
    hash: Buffer.alloc(32, n),
  },
  maintainers: [ALICE],
});
const createOf = (n: number): Create => ({ lfVersion: '2.dev', contractId: cid(n), packageName: 'pkg', templateId: ident, argument: v({ oneofKind: 'text', text: `asset ${n}` }), signatories: [ALICE], stakeholders: [ALICE, BOB] });
const fetchOf = (n: number): Fetch => ({ lfVersion: '2.dev', contractId: cid(n), packageName: 'pkg', templateId: ident, signatories: [ALICE], stakeholders: [ALICE, BOB], actingParties: [BOB] });
const node = (nodeId: string, nodeType: NodeV1['nodeType']): DamlTransaction_Node => ({ nodeId, versionedNode: { oneofKind: 'v1', v1: { nodeType } } });
const v1Of = (m: PreparedTransaction, nodeId: string): NodeV1 => {
  const n = m.transaction!.nodes.find((x) => x.nodeId === nodeId)!;
  assert.ok(n.versionedNode.oneofKind === 'v1');
  return n.versionedNode.v1;
};
function typed<K extends 'create' | 'exercise' | 'fetch'>(m: PreparedTransaction, nodeId: string, kind: K): { create: Create; exercise: Exercise; fetch: Fetch }[K] {
  const t = v1Of(m, nodeId).nodeType;
  assert.equal(t.oneofKind, kind);
  return (t as unknown as Record<K, { create: Create; exercise: Exercise; fetch: Fetch }[K]>)[kind];
}
const lookupOf = (q: Partial<QueryByKey> & { key: GlobalKeyWithMaintainers }): QueryByKey => ({ lfVersion: '2.dev', packageName: 'pkg', templateId: ident, exhaustive: false, result: [], ...q });

/**
 * An exercise by key (node 0: its contract an input, keyed) creating a keyed contract (1), fetching one
 * by key (2) and a keyed one by id (3), and a rolled-back keyed create (4, 5); with `lookups`, a lookup
 * that finds a contract (6) and one that finds none (7). Without `keys`, the same tree with no key, no
 * `by_key`, no lookup and no max record time.
 */
function transaction(o: { keys: boolean; lookups: boolean }): PreparedTransaction {
  const m = PreparedTransaction.create({
    transaction: {
      version: '2.dev',
      roots: ['0'],
      nodes: [
        node('0', {
          oneofKind: 'exercise',
          exercise: {
            lfVersion: '2.dev',
            contractId: cid(1),
            packageName: 'pkg',
            templateId: ident,
            signatories: [ALICE],
            stakeholders: [ALICE, BOB],
            actingParties: [ALICE],
            choiceId: 'Asset_Rename',
            chosenValue: v({ oneofKind: 'record', record: { fields: [{ label: 'newDescription', value: v({ oneofKind: 'text', text: 'Red sedan' }) }] } }),
            consuming: true,
            children: ['1', '2', '3', '4'],
            exerciseResult: v({ oneofKind: 'contractId', contractId: cid(2) }),
            choiceObservers: [],
          },
        }),
        node('1', { oneofKind: 'create', create: createOf(2) }),
        node('2', { oneofKind: 'fetch', fetch: fetchOf(3) }),
        node('3', { oneofKind: 'fetch', fetch: fetchOf(4) }),
        node('4', { oneofKind: 'rollback', rollback: { children: ['5'] } }),
        node('5', { oneofKind: 'create', create: createOf(5) }),
      ],
      nodeSeeds: [0, 1].map((n) => ({ nodeId: n, seed: Buffer.alloc(32, 0x10 + n) })),
    },
    metadata: {
      submitterInfo: { actAs: [ALICE], commandId: 'rename-1' },
      synchronizerId: 'sync::1220aa',
      mediatorGroup: 0,
      transactionUuid: '6f1c2e0a-9a7e-4f0b-a1c2-000000000002',
      preparationTime: 1767225600000000n,
      minLedgerEffectiveTime: 1767225500000000n,
      inputContracts: [1, 3, 4].map((n) => ({ contract: { oneofKind: 'v1' as const, v1: createOf(n) }, createdAt: 1767225000000000n + BigInt(n), eventBlob: new Uint8Array() })),
      globalKeyMapping: [],
      ...(o.keys ? { maxRecordTime: 1767229200000000n } : {}),
    },
  });
  if (o.keys) {
    writeKeyFields('exercise', typed(m, '0', 'exercise'), { key: keyOf(1), byKey: true });
    writeKeyFields('create', typed(m, '1', 'create'), { key: keyOf(2), byKey: false });
    writeKeyFields('fetch', typed(m, '2', 'fetch'), { key: keyOf(3), byKey: true });
    writeKeyFields('fetch', typed(m, '3', 'fetch'), { key: keyOf(4), byKey: false });
    writeKeyFields('create', typed(m, '5', 'create'), { key: keyOf(5), byKey: false });
    m.metadata!.inputContracts.forEach((c, i) => writeKeyFields('create', (c.contract as { v1: Create }).v1, { key: keyOf([1, 3, 4][i]), byKey: false }));
  }
  if (o.lookups) {
    m.transaction!.roots.push('6', '7');
    m.transaction!.nodes.push(
      { nodeId: '6', versionedNode: { oneofKind: 'v1', v1: queryByKeyNode(lookupOf({ key: keyOf(3), exhaustive: true, result: [cid(3)] })) } },
      { nodeId: '7', versionedNode: { oneofKind: 'v1', v1: queryByKeyNode(lookupOf({ key: keyOf(9) })) } },
    );
  }
  return roundTrip(m);
}

/**
 * One-byte changes in each keyed field of the transaction with lookups: each must change its V3 hash.
 * The reference hashes those marked (a run costs about a second): the fields whose encoding is least
 * like the rest — a raw key hash, a flag, a lookup's contract ids, an optional time.
 */
const KEYED_EDITS: { what: string; edit: (m: PreparedTransaction) => void; reference?: true }[] = [
  { what: 'the hash of an exercise’s key', edit: (m) => editKey(m, '0', 'exercise', (k) => (k.key!.hash[31] ^= 1)), reference: true },
  { what: 'by_key of the exercise', edit: (m) => writeKeyFields('exercise', typed(m, '0', 'exercise'), { ...readKeyFields('exercise', typed(m, '0', 'exercise')), byKey: false }), reference: true },
  { what: 'a maintainer of a created contract’s key', edit: (m) => editKey(m, '1', 'create', (k) => (k.maintainers = [ALICE.replace(/d$/, 'e')])) },
  { what: 'by_key of a fetch', edit: (m) => writeKeyFields('fetch', typed(m, '3', 'fetch'), { ...readKeyFields('fetch', typed(m, '3', 'fetch')), byKey: true }) },
  { what: 'a letter of a fetched contract’s key', edit: (m) => editKey(m, '2', 'fetch', (k) => ((k.key!.key!.sum as { record: { fields: { value: Value }[] } }).record.fields[1].value = v({ oneofKind: 'text', text: 'car-4' }))) },
  { what: 'the key of a rolled-back create', edit: (m) => editKey(m, '5', 'create', (k) => (k.key!.packageName = 'pkh')) },
  { what: 'the contract a lookup found', edit: (m) => editLookup(m, '6', (q) => (q.result = [cid(3).replace(/b$/, 'c')])), reference: true },
  { what: 'a lookup’s exhaustive flag', edit: (m) => editLookup(m, '7', (q) => (q.exhaustive = true)) },
  { what: 'the max record time', edit: (m) => (m.metadata!.maxRecordTime! += 1n), reference: true },
  { what: 'the key of an input contract', edit: (m) => editKeyOf('create', (m.metadata!.inputContracts[1].contract as { v1: Create }).v1, (k) => (k.key!.hash[0] ^= 0x80)) },
];

function editKeyOf<K extends 'create' | 'exercise' | 'fetch'>(kind: K, message: { create: Create; exercise: Exercise; fetch: Fetch }[K], edit: (k: GlobalKeyWithMaintainers) => void): void {
  const fields = readKeyFields(kind, message);
  edit(fields.key!);
  writeKeyFields(kind, message, fields);
}
function editKey<K extends 'create' | 'exercise' | 'fetch'>(m: PreparedTransaction, nodeId: string, kind: K, edit: (k: GlobalKeyWithMaintainers) => void): void {
  editKeyOf(kind, typed(m, nodeId, kind), edit);
}
function editLookup(m: PreparedTransaction, nodeId: string, edit: (q: QueryByKey) => void): void {
  const n = m.transaction!.nodes.find((x) => x.nodeId === nodeId)!;
  const q = readQueryByKey(v1Of(m, nodeId))!;
  edit(q);
  n.versionedNode = { oneofKind: 'v1', v1: queryByKeyNode(q) };
}

function edited(edit: (m: PreparedTransaction) => void): PreparedTransaction {
  const m = transaction({ keys: true, lookups: true });
  edit(m);
  return roundTrip(m);
}

/** Keyed fields V2 leaves out: a key hash, `by_key`, the max record time. */
function keyedFieldsChanged(): PreparedTransaction {
  const m = transaction({ keys: true, lookups: false });
  editKey(m, '0', 'exercise', (k) => (k.key!.hash[0] ^= 1));
  writeKeyFields('fetch', typed(m, '2', 'fetch'), { ...readKeyFields('fetch', typed(m, '2', 'fetch')), byKey: false });
  m.metadata!.maxRecordTime = 1n;
  return roundTrip(m);
}

const expectHash = (ref: Partial<Record<HashingScheme, ReferenceHash>> | undefined, scheme: HashingScheme): string => {
  const r = ref?.[scheme];
  assert.ok(r && 'hash' in r, `the reference hashed it under ${scheme}: ${JSON.stringify(r)}`);
  return r.hash;
};

describe("prepared transaction hash: schemes V2 and V3 against Canton's reference implementation", function () {
  this.timeout(180_000);

  interface Case {
    name: string;
    message: PreparedTransaction;
    /** The schemes the reference can hash it under (V2 has no lookups). */
    schemes: HashingScheme[];
    /** The demo participant's answer, when the case is one of its prepares. */
    answer?: wire.JsPrepareSubmissionResponse;
    /** The scheme the demo must have chosen. */
    demoScheme?: HashingScheme;
  }
  const cases: Case[] = [];
  let reference: Map<string, Partial<Record<HashingScheme, ReferenceHash>>>;

  before(async function () {
    requireHashReference(this);
    const p: DemoParticipant = await startCheckedParticipant({ port: 0, seed: 47 });
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
      const submit = async (actAs: string, command: wire.Command) =>
        (await client.submitAndWaitForTransaction({ commands: { commands: [command], commandId: `setup-${randomUUID()}`, actAs: [actAs] } })).transaction.events.find((e) => e.kind === 'created')!.contractId;
      const iou = (owner: string): wire.Command => ({ CreateCommand: { templateId: IOU, createArguments: { issuer: p.parties.bank, owner, currency: 'USD', amount: '100', observers: [] } } });
      // Asset ids of their own: the seeded ledger has cars already.
      const asset = (id: string): wire.Command => ({ CreateCommand: { templateId: ASSET, createArguments: { owner: p.parties.alice, id: `hash-${id}`, description: 'Blue sedan' } } });
      const rename = { choice: 'Asset_Rename', choiceArgument: { newDescription: 'Red sedan' } };
      const prepares: [string, HashingScheme, string, () => Promise<wire.Command>][] = [
        ['demo: an unkeyed create', 'V2', p.parties.bank, async () => iou(p.parties.alice)],
        ['demo: an unkeyed exercise with an input contract', 'V2', p.parties.alice, async () => ({ ExerciseCommand: { templateId: IOU, contractId: await submit(p.parties.bank, iou(p.parties.alice)), choice: 'Iou_Transfer', choiceArgument: { newOwner: p.parties.bob } } })],
        ['demo: a keyed create', 'V3', p.parties.alice, async () => asset('car-1')],
        ['demo: an exercise by key, its input keyed, creating a keyed contract', 'V3', p.parties.alice, async () => (await submit(p.parties.alice, asset('car-2')), { ExerciseByKeyCommand: { templateId: ASSET, contractKey: { _1: p.parties.alice, _2: 'hash-car-2' }, ...rename } })],
        ['demo: an exercise of a keyed contract by its id', 'V3', p.parties.alice, async () => ({ ExerciseCommand: { templateId: ASSET, contractId: await submit(p.parties.alice, asset('car-3')), ...rename } })],
      ];
      for (const [name, demoScheme, actAs, command] of prepares) {
        const { raw } = await client.prepare(prepareRequestOf({ commands: [await command()], commandId: `hash-${randomUUID()}`, actAs: [actAs] }));
        cases.push({ name, message: PreparedTransaction.fromBinary(Buffer.from(raw.preparedTransaction, 'base64')), schemes: ['V2', 'V3'], answer: raw, demoScheme });
      }
    } finally {
      await p.close();
    }
    cases.push(
      { name: 'hand-built: the same tree without keys', message: transaction({ keys: false, lookups: false }), schemes: ['V2', 'V3'] },
      { name: 'hand-built: keyed creates, an exercise and a fetch by key, a keyed fetch by id, keyed inputs, a max record time', message: transaction({ keys: true, lookups: false }), schemes: ['V2', 'V3'] },
      { name: 'hand-built: the same with lookups, one found, one not', message: transaction({ keys: true, lookups: true }), schemes: ['V3'] },
    );
    reference = await referenceHashes([
      ...cases.map((c) => ({ name: c.name, bytes: PreparedTransaction.toBinary(c.message), schemes: c.schemes })),
      { name: 'lookups under V2', bytes: PreparedTransaction.toBinary(transaction({ keys: true, lookups: true })), schemes: ['V2'] },
      { name: 'keyed fields changed', bytes: PreparedTransaction.toBinary(keyedFieldsChanged()), schemes: ['V2', 'V3'] },
      ...KEYED_EDITS.filter((e) => e.reference).map(({ what, edit }) => ({ name: `edit: ${what}`, bytes: PreparedTransaction.toBinary(edited(edit)), schemes: ['V3' as const] })),
    ]);
  });

  it('V2 and V3 equal the reference on every transaction, and V2 equals the official visualizer', async () => {
    assert.equal(cases.length, 8);
    for (const c of cases) {
      for (const scheme of c.schemes) assert.equal(ours(c.message, scheme), expectHash(reference.get(c.name), scheme), `${c.name}: ${scheme}`);
      if (c.schemes.includes('V2')) assert.equal(ours(c.message, 'V2'), await hashPreparedTransaction(c.message, 'hex'), `${c.name}: the visualizer's V2`);
      assert.notEqual(ours(c.message, 'V3'), c.schemes.includes('V2') ? ours(c.message, 'V2') : '', `${c.name}: V3 is not V2`);
    }
  });

  it('the demo answers V3 where keys are involved and V2 otherwise, with the hash of that scheme, which the preview verifies', () => {
    const demo = cases.filter((c) => c.answer);
    assert.deepEqual(
      demo.map((c) => [c.name, c.answer!.hashingSchemeVersion]),
      demo.map((c) => [c.name, `HASHING_SCHEME_VERSION_${c.demoScheme}`]),
    );
    for (const c of demo) {
      const sent = Buffer.from(c.answer!.preparedTransactionHash, 'base64').toString('hex');
      assert.equal(sent, expectHash(reference.get(c.name), c.demoScheme!), `${c.name}: the demo sends the reference's hash`);
      assert.deepEqual(readPreparedAnswer(c.answer!).hash, { kind: 'verified', scheme: c.demoScheme, hash: sent });
    }
    const byKey = [...walkNodes(readPreparedAnswer(demo[3].answer!).preview.roots)];
    assert.deepEqual(
      byKey.map((n) => [n.kind, n.byKey ?? false, n.key?.value]),
      [
        ['exercise', true, { _1: byKey[0].actingParties[0], _2: 'hash-car-2' }],
        ['create', false, { _1: byKey[0].actingParties[0], _2: 'hash-car-2' }],
      ],
    );
  });

  it('a lookup cannot be hashed under V2, by the reference either: cannot verify, naming the node', () => {
    const refused = reference.get('lookups under V2')?.V2;
    assert.ok(refused && 'refused' in refused, 'the reference refuses it');
    assert.match(refused.refused, /Unsupported node type/);
    const m = transaction({ keys: true, lookups: true });
    assert.throws(() => preparedTransactionHash(m, 'V2'), (e) => e instanceof HashEncodingError && e.problem === 'unknown-node' && e.at === 'node 6');
    const verdict = verifyPreparedHash(m, { preparedTransactionHash: '', hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' });
    assert.deepEqual({ ...verdict, reason: undefined }, { kind: 'cannot-verify', scheme: 'V2', why: 'cannot-encode', reason: undefined });
  });

  it('a one-byte change in any keyed field changes the V3 hash, as it does for the reference', () => {
    const base = ours(cases.at(-1)!.message, 'V3');
    for (const { what, edit, reference: checked } of KEYED_EDITS) {
      const mine = ours(edited(edit), 'V3');
      assert.notEqual(mine, base, what);
      if (checked) assert.equal(mine, expectHash(reference.get(`edit: ${what}`), 'V3'), what);
    }
  });

  it("keys, by_key and the max record time are outside V2: changing them changes V3 only, as for the reference", () => {
    const before = cases.find((c) => c.name.startsWith('hand-built: keyed creates'))!;
    const after = keyedFieldsChanged();
    assert.equal(ours(after, 'V2'), ours(before.message, 'V2'));
    assert.equal(expectHash(reference.get('keyed fields changed'), 'V2'), expectHash(reference.get(before.name), 'V2'));
    assert.notEqual(ours(after, 'V3'), ours(before.message, 'V3'));
    assert.equal(ours(after, 'V3'), expectHash(reference.get('keyed fields changed'), 'V3'));
  });
});

describe('the preview of a keyed transaction, and of a scheme this client does not know', () => {
  const keyed = transaction({ keys: true, lookups: true });
  const base64 = Buffer.from(PreparedTransaction.toBinary(keyed)).toString('base64');
  const answer = (hashingSchemeVersion: string, hash = preparedTransactionHash(keyed, 'V3')): wire.JsPrepareSubmissionResponse => ({
    preparedTransaction: base64,
    preparedTransactionHash: Buffer.from(hash).toString('base64'),
    hashingSchemeVersion: hashingSchemeVersion as wire.HashingSchemeVersion,
  });
  const documentOf = (raw: wire.JsPrepareSubmissionResponse) => {
    const { preview, hash } = readPreparedAnswer(raw);
    return { doc: previewDocument({ preview, raw, hash, participant: 'test' }), text: previewText({ preview, raw, hash, participant: 'test' }), hash };
  };

  it('carries the keys, by_key, the lookups and the max record time', () => {
    const p = decodePreparedTransaction(base64);
    const nodes = [...walkNodes(p.roots)];
    assert.deepEqual(
      nodes.map((n) => [n.nodeId, n.kind, n.byKey ?? false, n.key?.value ?? null, n.key?.hash.slice(0, 4) ?? null]),
      [
        ['0', 'exercise', true, { _1: ALICE, _2: 'car-1' }, '0101'],
        ['1', 'create', false, { _1: ALICE, _2: 'car-2' }, '0202'],
        ['2', 'fetch', true, { _1: ALICE, _2: 'car-3' }, '0303'],
        ['3', 'fetch', false, { _1: ALICE, _2: 'car-4' }, '0404'],
        ['4', 'rollback', false, null, null],
        ['5', 'create', false, { _1: ALICE, _2: 'car-5' }, '0505'],
        ['6', 'lookup', false, { _1: ALICE, _2: 'car-3' }, '0303'],
        ['7', 'lookup', false, { _1: ALICE, _2: 'car-9' }, '0909'],
      ],
    );
    const [found, free] = nodes.slice(6);
    assert.deepEqual([found.found, found.exhaustive, found.templateId, found.informees], [[cid(3)], true, `${'a'.repeat(64)}:Asset.Keyed:Asset`, [ALICE]]);
    assert.deepEqual([free.found, free.exhaustive], [[], false]);
    assert.deepEqual(nodes[0].key?.maintainers, [ALICE]);
    assert.deepEqual(p.inputContracts.map((c) => c.key?.value), [1, 3, 4].map((n) => ({ _1: ALICE, _2: `car-${n}` })));
    assert.equal(p.maxRecordTime, '2026-01-01T01:00:00.000Z');
  });

  it('a V3 answer is "hash verified (V3)", and the document and the text show the keys and lookups', () => {
    const { doc, text, hash } = documentOf(answer('HASHING_SCHEME_VERSION_V3'));
    assert.equal(hash.kind, 'verified');
    assert.match(String(doc.hashCheck), /^hash verified \(V3\): recomputed here/);
    assert.equal(doc.warning, undefined);
    const [root, found] = doc.transaction as Record<string, unknown>[];
    assert.deepEqual([root.byKey, (root.key as { value: unknown }).value], [true, { _1: ALICE, _2: 'car-1' }]);
    assert.deepEqual([found.found, found.exhaustive], [[cid(3)], true]);
    assert.match(text, /^ {2}exercise Asset_Rename on \S+ \S+ \(by key\) \(consuming: archives it\)/m);
    assert.match(text, new RegExp(`^ {2}lookup by key \\S+ key \\{"_1":"${ALICE}","_2":"car-3"\\} → ${cid(3)} \\(seen by ${ALICE}\\)$`, 'm'));
    assert.match(text, /^ {2}lookup by key \S+ key \{"_1":"[^"]+","_2":"car-9"\} → not found/m);
    assert.match(String(doc.summary), /, look up 2 keys;/);
  });

  it('a keyed field changed after hashing is a V3 mismatch: DO NOT SIGN', () => {
    const tampered = edited(KEYED_EDITS[0].edit);
    const { doc, hash } = documentOf({ ...answer('HASHING_SCHEME_VERSION_V3'), preparedTransaction: Buffer.from(PreparedTransaction.toBinary(tampered)).toString('base64') });
    assert.equal(hash.kind, 'mismatch');
    assert.equal(hash.scheme, 'V3');
    assert.equal(doc.warning, HASH_MISMATCH_WARNING);
  });

  it('a scheme this client does not know is "not verified (V4)": never verified, never DO NOT SIGN', () => {
    const { doc, text, hash } = documentOf(answer('HASHING_SCHEME_VERSION_V4'));
    assert.deepEqual(hash, { kind: 'cannot-verify', scheme: 'V4', why: 'unknown-scheme', reason: 'the participant hashed with scheme V4; this client computes schemes V2 and V3' });
    assert.equal(hashCheckLine(hash), 'hash not verified (V4): the participant hashed with scheme V4; this client computes schemes V2 and V3');
    assert.equal(doc.warning, undefined);
    assert.doesNotMatch(text, /DO NOT SIGN|hash verified/);
    // A scheme it knows is judged as named: a V3 hash sent as V2 does not match.
    const noLookups = transaction({ keys: true, lookups: false });
    const asV2 = verifyPreparedHash(noLookups, { preparedTransactionHash: Buffer.from(preparedTransactionHash(noLookups, 'V3')).toString('base64'), hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2' });
    assert.deepEqual([asV2.kind, asV2.scheme], ['mismatch', 'V2']);
  });
});
