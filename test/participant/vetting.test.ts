import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import { ASSET as ASSET_TEMPLATE, CATALOG, IOU as IOU_TEMPLATE, IOU_V2_TEMPLATE } from '../../src/participant/catalog';
import type { DemoParticipant } from '../../src/participant/index';
import { assertCantonError, assertDecodeFailure, assertSpecValid, createIou, createdEvents, post, start, submit } from './helpers';

const LIST = '/v2/package-vetting/list';
const UPDATE = '/v2/package-vetting/update';
const IOU_V1 = IOU_TEMPLATE.pkg.id;
const IOU_V2 = IOU_V2_TEMPLATE.pkg.id;
const ASSET_V1 = ASSET_TEMPLATE.pkg.id;
const PRIM = CATALOG.find((x) => x.name === 'daml-prim')!.id;

const vet = (...packages: wire.VettedPackagesRef[]): wire.VettedPackagesChange => ({ operation: { Vet: { value: { packages } } } });
const unvet = (...packages: wire.VettedPackagesRef[]): wire.VettedPackagesChange => ({ operation: { Unvet: { value: { packages } } } });
const ids = (v: wire.VettedPackages) => (v.packages ?? []).map((x) => x.packageId).sort();

describe('demo participant: package vetting', () => {
  let p: DemoParticipant;
  beforeEach(async () => {
    p = await start();
  });
  afterEach(() => p.close());

  const list = async (body: wire.ListVettedPackagesRequest = {}) => {
    const reply = await post<wire.ListVettedPackagesResponse>(p, LIST, body);
    assert.equal(reply.status, 200, reply.text);
    return reply.json;
  };

  it('lists the vetted packages with names, versions and the topology serial', async () => {
    const json = await list();
    assertSpecValid(json, 'ListVettedPackagesResponse');
    assert.equal(json.nextPageToken, '');
    const [state] = json.vettedPackages!;
    assert.equal(state.participantId, p.participantId);
    assert.equal(state.topologySerial, 1);
    assert.deepEqual(
      state.packages!.map((x) => `${x.packageName}@${x.packageVersion}`),
      ['daml-prim@3.5.0', 'daml-stdlib@3.5.0', 'demo-asset@1.0.0', 'demo-holding@1.0.0', 'demo-iou@1.0.0'],
    );
    assert.equal(state.packages![0].validFromInclusive, null);
    const prefixed = await list({ packageMetadataFilter: { packageNamePrefixes: ['demo-i'] } });
    assert.deepEqual(ids(prefixed.vettedPackages![0]), [IOU_V1]);
    const elsewhere = await list({ topologyStateFilter: { participantIds: ['other::1220ab'] } });
    assert.deepEqual(elsewhere.vettedPackages, []);
  });

  it('a dry run previews the change without applying it; a real one bumps the serial', async () => {
    const dry = await post<wire.UpdateVettedPackagesResponse>(p, UPDATE, { changes: [vet({ packageName: 'demo-iou', packageVersion: '2.0.0' })], dryRun: true });
    assert.equal(dry.status, 200, dry.text);
    assert.ok(ids(dry.json.newVettedPackages).includes(IOU_V2));
    assert.equal(dry.json.newVettedPackages.topologySerial, 2);
    assert.equal((await list()).vettedPackages![0].topologySerial, 1, 'not applied');

    const real = await post<wire.UpdateVettedPackagesResponse>(p, UPDATE, {
      changes: [vet({ packageId: IOU_V2 })],
      expectedTopologySerial: { serial: { Prior: { value: 1 } } },
    });
    assert.equal(real.status, 200, real.text);
    assertSpecValid(real.json, 'UpdateVettedPackagesResponse');
    assert.equal(real.json.pastVettedPackages!.topologySerial, 1);
    assert.ok(!ids(real.json.pastVettedPackages!).includes(IOU_V2));
    assert.equal(real.json.newVettedPackages.topologySerial, 2);
    assert.equal((await list()).vettedPackages![0].topologySerial, 2);

    // Vetting it again changes nothing: no new topology transaction, the serial stays.
    const same = await post<wire.UpdateVettedPackagesResponse>(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })] });
    assert.equal(same.json.newVettedPackages.topologySerial, 2);
  });

  it('keeps validity bounds and renders them as instants', async () => {
    const reply = await post<wire.UpdateVettedPackagesResponse>(p, UPDATE, {
      changes: [{ operation: { Vet: { value: { packages: [{ packageId: IOU_V2 }], newValidFromInclusive: '2030-01-01T00:00:00Z' } } } }],
    });
    const v2 = reply.json.newVettedPackages.packages!.find((x) => x.packageId === IOU_V2)!;
    assert.equal(v2.validFromInclusive, '2030-01-01T00:00:00Z');
    assert.equal(v2.validUntilExclusive, null);
    assertDecodeFailure(
      await post(p, UPDATE, { changes: [{ operation: { Vet: { value: { packages: [{ packageId: IOU_V2 }], newValidFromInclusive: 'tomorrow' } } } }] }),
    );
  });

  it('TOPOLOGY_SERIAL_MISMATCH when the expected serial is stale (Prior or NoPrior)', async () => {
    const stale = await post(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })], expectedTopologySerial: { serial: { Prior: { value: 7 } } } });
    assertCantonError(stale, 400, 'TOPOLOGY_SERIAL_MISMATCH', 9);
    const noPrior = await post(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })], expectedTopologySerial: { serial: { NoPrior: {} } } });
    assertCantonError(noPrior, 400, 'TOPOLOGY_SERIAL_MISMATCH', 9);
    assertCantonError(await post(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })], expectedTopologySerial: { serial: { Empty: {} } } }), 400, 'MISSING_FIELD', 8);
  });

  it('Vet refs must match exactly one package, Unvet refs may match several, unmatched refs reject', async () => {
    const ambiguous = await post(p, UPDATE, { changes: [vet({ packageName: 'demo-iou' })] });
    assert.match(assertCantonError(ambiguous, 400, 'INVALID_ARGUMENT', 8).cause, /ambiguous/);
    assertCantonError(await post(p, UPDATE, { changes: [vet({ packageName: 'no-such' })] }), 400, 'INVALID_ARGUMENT', 8);
    assertCantonError(await post(p, UPDATE, { changes: [vet({ packageVersion: '1.0.0' })] }), 400, 'INVALID_ARGUMENT', 8);
    assertCantonError(await post(p, UPDATE, { changes: [] }), 400, 'MISSING_FIELD', 8);
    assertCantonError(await post(p, UPDATE, { changes: [{ operation: { Empty: {} } }] }), 400, 'MISSING_FIELD', 8);
    const both = await post<wire.UpdateVettedPackagesResponse>(p, UPDATE, { changes: [unvet({ packageName: 'demo-asset' }), unvet({ packageName: 'demo-iou' })] });
    assert.equal(both.status, 200, both.text);
    assert.ok(!ids(both.json.newVettedPackages).some((id) => id === IOU_V1 || id === ASSET_V1));
  });

  it('TOPOLOGY_DEPENDENCIES_NOT_VETTED names the missing dependencies, unless forced; changes apply in order', async () => {
    // demo-iou refers to daml-prim's DA.Types:Tuple2 (Iou_Split's result): a dependency read from its Daml-LF.
    await post(p, UPDATE, { changes: [unvet({ packageId: ASSET_V1 }), unvet({ packageId: IOU_V1 }), unvet({ packageId: PRIM })] });
    const missing = await post(p, UPDATE, { changes: [vet({ packageId: IOU_V1 })], dryRun: true });
    const error = assertCantonError(missing, 400, 'TOPOLOGY_DEPENDENCIES_NOT_VETTED', 9);
    assert.equal(error.context!.unvetted, `Set(${PRIM})`);
    assert.equal(error.cause, 'Package vetting failed due to dependencies not being vetted');
    const forced = await post(p, UPDATE, { changes: [vet({ packageId: IOU_V1 })], updateVettedPackagesForceFlags: ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'], dryRun: true });
    assert.equal(forced.status, 200, forced.text);
    const inOrder = await post(p, UPDATE, { changes: [vet({ packageId: PRIM }), vet({ packageId: IOU_V1 })] });
    assert.equal(inOrder.status, 200, inOrder.text);
    // 3.5.5+: unvetting a dependency of a vetted package needs no force flag.
    const dependency = await post(p, UPDATE, { changes: [unvet({ packageId: PRIM })] });
    assert.equal(dependency.status, 200, dependency.text);
  });

  it('vetting decides which package a name-form command uses, and whether it can run at all', async () => {
    await post(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })] });
    const tx = await submit(p, [p.parties.bank], [createIou(p.parties.bank, p.parties.alice)]);
    assert.equal(createdEvents(tx)[0].templateId, IOU_V2_TEMPLATE.id, 'the highest vetted version');
    await post(p, UPDATE, { changes: [unvet({ packageName: 'demo-iou' })], updateVettedPackagesForceFlags: ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'] });
    const reply = await post(p, '/v2/commands/submit-and-wait', { commandId: 'c', actAs: [p.parties.bank], commands: [createIou(p.parties.bank, p.parties.alice)] });
    assertCantonError(reply, 400, 'NO_SYNCHRONIZER_FOR_SUBMISSION', 9);
  });
});

describe('demo participant: package vetting with two synchronizers', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start({ synchronizers: 2 });
  });
  after(() => p.close());

  it('needs a synchronizerId to update, and lists one state per synchronizer', async () => {
    const listed = await post<wire.ListVettedPackagesResponse>(p, LIST, {});
    assert.equal(listed.json.vettedPackages!.length, 2);
    const auto = await post(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })] });
    assertCantonError(auto, 400, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER', 9);
    const second = p.state.synchronizers[1].id;
    const reply = await post<wire.UpdateVettedPackagesResponse>(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })], synchronizerId: second });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.newVettedPackages.synchronizerId, second);
    const after = await post<wire.ListVettedPackagesResponse>(p, LIST, { topologyStateFilter: { synchronizerIds: [p.state.synchronizers[0].id] } });
    assert.equal(after.json.vettedPackages![0].topologySerial, 1, 'the other synchronizer is unchanged');
    assertCantonError(await post(p, UPDATE, { changes: [vet({ packageId: IOU_V2 })], synchronizerId: 'elsewhere::1220ab' }), 400, 'INVALID_ARGUMENT', 8);
  });
});
