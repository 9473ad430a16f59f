/**
 * The demo participant's packages as real Daml-LF: the catalog served as ArchivePayloads that decode
 * back to its templates, values checked against the LF types, DARs loaded at the start (`dars`) and
 * uploaded (`POST /v2/dars`, `/v2/packages`, `/v2/dars/validate`) with the real DARs of ../shared.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { decodeArchivePayload } from '../../src/core/daml/lf/archive';
import { printType } from '../../src/core/daml/types';
import { ASSET, CATALOG, IOU } from '../../src/participant/catalog';
import type { DemoParticipant } from '../../src/participant/index';
import { DARS, requireDar, requireDarBytes } from '../support/dars';
import { assertCantonError, assertDecodeFailure, commands, createdEvents, get, getBytes, post, postBytes, start, submit } from './helpers';

const SUBMIT = '/v2/commands/submit-and-wait-for-transaction';
const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

const vettedIds = async (p: DemoParticipant): Promise<string[]> => {
  const reply = await post(p, '/v2/package-vetting/list', {});
  return reply.json.vettedPackages[0].packages.map((x: { packageId: string }) => x.packageId);
};

describe('demo participant: packages', () => {
  let p: DemoParticipant;
  before(async () => {
    p = await start();
  });
  after(() => p.close());

  it('serves the catalog as Daml-LF: the bytes hash to the id and decode back to the templates', async () => {
    const { json } = await get(p, '/v2/packages');
    assert.deepEqual(json.packageIds, CATALOG.map((x) => x.id));
    for (const id of json.packageIds as string[]) {
      const reply = await getBytes(p, `/v2/packages/${id}`);
      assert.equal(reply.status, 200);
      assert.equal(reply.headers.get('content-type'), 'application/octet-stream');
      assert.equal(reply.headers.get('canton-package-hash'), id);
      assert.equal(createHash('sha256').update(reply.bytes).digest('hex'), id);
    }
    const iou = decodeArchivePayload((await getBytes(p, `/v2/packages/${IOU.pkg.id}`)).bytes, IOU.pkg.id);
    assert.equal(`${iou.name} ${iou.version}`, 'demo-iou 1.0.0');
    const [module] = iou.modules;
    const fields = module.dataTypes.find((d) => d.name === 'Iou');
    assert.deepEqual(fields?.kind === 'record' && fields.fields.map((f) => `${f.name}: ${printType(f.type)}`), ['issuer: Party', 'owner: Party', 'currency: Text', 'amount: Numeric 10', 'observers: [Party]']);
    const choices = module.templates[0].choices.map((c) => `${c.name} ${c.consuming} ${printType(c.argType, { qualified: true })} -> ${printType(c.returnType)}`);
    assert.deepEqual(choices, [
      'Iou_Transfer true Iou:Iou_Transfer -> ContractId Iou',
      'Iou_Split true Iou:Iou_Split -> Tuple2 (ContractId Iou) (ContractId Iou)',
      'Archive true DA.Internal.Template:Archive -> ()',
    ]);
    const prim = CATALOG.find((x) => x.name === 'daml-prim')!.id;
    const stdlib = CATALOG.find((x) => x.name === 'daml-stdlib')!.id;
    const holding = CATALOG.find((x) => x.name === 'demo-holding')!.id;
    assert.deepEqual(iou.dependencies, [prim, stdlib, holding].sort(), 'dependencies are the packages its types and interface instances refer to');
    assert.deepEqual(module.templates[0].implements, [{ packageId: holding, moduleName: 'Holding', name: 'Holding' }]);
    const holdingPackage = decodeArchivePayload((await getBytes(p, `/v2/packages/${holding}`)).bytes, holding);
    const [iface] = holdingPackage.modules[0].interfaces;
    assert.equal(`${iface.name} view ${printType(iface.viewType, { qualified: true })}`, 'Holding view Holding:HoldingView');
    assert.deepEqual(iface.methods.map((m) => `${m.name}: ${printType(m.type)}`), ['setOwner: Party -> Holding']);
    assert.deepEqual(iface.choices.map((c) => c.name), ['Holding_Transfer', 'Archive']);
    const asset = decodeArchivePayload((await getBytes(p, `/v2/packages/${ASSET.pkg.id}`)).bytes);
    assert.equal(printType(asset.modules[0].templates[0].keyType!, { qualified: true }), 'DA.Types:Tuple2 Party Text');
  });

  it('package status, and unknown or malformed package ids', async () => {
    assert.deepEqual((await get(p, `/v2/packages/${IOU.pkg.id}/status`)).json, { packageStatus: 'PACKAGE_STATUS_REGISTERED' });
    assert.deepEqual((await get(p, `/v2/packages/${'0'.repeat(64)}/status`)).json, { packageStatus: 'PACKAGE_STATUS_UNSPECIFIED' });
    const unknown = assertCantonError(await get(p, `/v2/packages/${'0'.repeat(64)}`), 404, 'PACKAGE_NOT_FOUND', 11);
    assert.deepEqual(unknown.resources, [['PACKAGE', '0'.repeat(64)]]);
    assertCantonError(await get(p, '/v2/packages/not-a-package-id'), 400, 'INVALID_ARGUMENT', 8);
  });

  it('checks create and choice arguments against the LF types, with Canton’s codes', async () => {
    const create = (createArguments: unknown) => post(p, SUBMIT, { commands: commands([p.parties.bank], [{ CreateCommand: { templateId: IOU.id, createArguments } }]) });
    const good = { issuer: p.parties.bank, owner: p.parties.alice, currency: 'USD', amount: '1', observers: [] };
    const wrongKind = assertCantonError(await create({ ...good, observers: [p.parties.bob, 7] }), 400, 'COMMAND_PREPROCESSING_FAILED', 8);
    assert.equal(wrongKind.cause, 'mismatching type: Party and value: 7');
    assert.equal(assertCantonError(await create({ ...good, currency: ['USD'] }), 400, 'COMMAND_PREPROCESSING_FAILED', 8).cause, 'mismatching type: Text and value: ["USD"]');
    assert.equal(assertCantonError(await create('not a record'), 400, 'COMMAND_PREPROCESSING_FAILED', 8).cause, 'mismatching type: Iou and value: "not a record"');
    assert.match(assertCantonError(await create({ ...good, colour: 'red', size: 2 }), 400, 'INVALID_ARGUMENT', 8).cause, /Unexpected fields: colour, size$/);
    // An unknown field whose value is null is accepted (and dropped), as Canton does for upgrades.
    const tx = await submit(p, [p.parties.bank], [{ CreateCommand: { templateId: IOU.id, createArguments: { ...good, amount: 2, colour: null } } }]);
    const [created] = createdEvents(tx);
    assert.deepEqual(created.createArgument, { ...good, amount: '2.0000000000' });

    const split = (choiceArgument: unknown) =>
      post(p, SUBMIT, { commands: commands([p.parties.alice], [{ ExerciseCommand: { templateId: IOU.id, contractId: created.contractId, choice: 'Iou_Split', choiceArgument } }]) });
    assert.equal(assertCantonError(await split({ splitAmount: true }), 400, 'COMMAND_PREPROCESSING_FAILED', 8).cause, 'mismatching type: Numeric 10 and value: true');
    assert.equal(assertCantonError(await split({}), 400, 'COMMAND_PREPROCESSING_FAILED', 8).cause, 'Missing non-optional field: splitAmount');
    assert.equal((await split({ splitAmount: '0.5' })).status, 200);
  });
});

describe('demo participant: DARs loaded at the start', () => {
  let p: DemoParticipant;
  before(async function () {
    p = await start({ dars: [requireDarBytes(this, DARS.ping), requireDarBytes(this, DARS.holding)] });
  });
  after(() => p?.close());

  it('lists, serves and vets the packages of the DARs', async function () {
    const ping = requireDar(this, DARS.ping);
    const holding = requireDar(this, DARS.holding);
    const { json } = await get(p, '/v2/packages');
    for (const pkg of [...ping.packages, ...holding.packages]) assert.ok(json.packageIds.includes(pkg.id), `${pkg.name} is listed`);
    const served = await getBytes(p, `/v2/packages/${holding.mainPackageId}`);
    assert.equal(decodeArchivePayload(served.bytes, holding.mainPackageId).name, 'splice-api-token-holding-v1');
    const vetted = await vettedIds(p);
    assert.ok(vetted.includes(ping.mainPackageId) && vetted.includes(holding.mainPackageId));
  });

  it('creates contracts of their templates (Party fields as signatories) and archives them; other choices are refused plainly', async () => {
    const { alice, bob } = p.parties;
    const args = { id: 'ping-1', initiator: alice, responder: bob };
    const alone = await post(p, SUBMIT, { commands: commands([alice], [{ CreateCommand: { templateId: PING, createArguments: args } }]) });
    assertCantonError(alone, 400, 'DAML_AUTHORIZATION_ERROR', 8);
    const wrong = await post(p, SUBMIT, { commands: commands([alice, bob], [{ CreateCommand: { templateId: PING, createArguments: { ...args, id: 42 } } }]) });
    assert.equal(assertCantonError(wrong, 400, 'COMMAND_PREPROCESSING_FAILED', 8).cause, 'mismatching type: Text and value: 42');
    const [created] = createdEvents(await submit(p, [alice, bob], [{ CreateCommand: { templateId: PING, createArguments: args } }]));
    assert.deepEqual(created.signatories, [alice, bob].sort());
    assert.deepEqual(created.createArgument, args);

    const exercise = (choice: string, choiceArgument: unknown) => ({ ExerciseCommand: { templateId: PING, contractId: created.contractId, choice, choiceArgument } });
    const respond = await post(p, SUBMIT, { commands: commands([bob], [exercise('Respond', {})]) });
    const refusal = assertCantonError(respond, 501, 'UNSUPPORTED_BY_DEMO_PARTICIPANT', 14);
    assert.match(refusal.cause, /does not interpret Daml: choice Respond of .*Canton\.Internal\.Ping:Ping runs Daml code; on templates loaded from DARs only creates and Archive work/);
    assertCantonError(await post(p, SUBMIT, { commands: commands([alice, bob], [exercise('Archive', { reason: 'x' })]) }), 400, 'INVALID_ARGUMENT', 8);
    assertCantonError(await post(p, SUBMIT, { commands: commands([alice], [exercise('Archive', {})]) }), 400, 'DAML_AUTHORIZATION_ERROR', 8);
    const archived = await submit(p, [alice, bob], [exercise('Archive', {})]);
    assert.ok((archived.events ?? []).some((e) => 'ArchivedEvent' in e));
  });
});

describe('demo participant: DAR upload', () => {
  const darOf = (files: Record<string, Uint8Array>) => zipSync(files);

  it('POST /v2/dars uploads and vets (unless vetAllPackages=false); the packages are listed and served', async function () {
    const ping = requireDarBytes(this, DARS.ping);
    const holding = requireDarBytes(this, DARS.holding);
    const p = await start();
    try {
      const pingMain = requireDar(this, DARS.ping).mainPackageId;
      const holdingMain = requireDar(this, DARS.holding).mainPackageId;
      const notVetted = await postBytes(p, '/v2/dars', holding, { query: { vetAllPackages: 'false' } });
      assert.equal(notVetted.status, 200, notVetted.text);
      assert.deepEqual(notVetted.json, {});
      assert.ok((await get(p, '/v2/packages')).json.packageIds.includes(holdingMain));
      assert.ok(!(await vettedIds(p)).includes(holdingMain));
      assert.equal((await postBytes(p, '/v2/packages', ping)).status, 200, 'the older alias');
      assert.ok((await vettedIds(p)).includes(pingMain), 'vetted by default');
      assert.equal((await getBytes(p, `/v2/packages/${pingMain}`)).headers.get('canton-package-hash'), pingMain);
      const [created] = createdEvents(await submit(p, [p.parties.alice], [{ CreateCommand: { templateId: PING, createArguments: { id: 'x', initiator: p.parties.alice, responder: p.parties.alice } } }]));
      assert.equal(created.packageName, 'canton-builtin-admin-workflow-ping');
      assertDecodeFailure(await postBytes(p, '/v2/dars', ping, { query: { vetAllPackages: 'maybe' } }), 'Invalid value for: query parameter vetAllPackages');
      assertCantonError(await postBytes(p, '/v2/dars', ping, { query: { synchronizerId: 'elsewhere::1220ab' } }), 400, 'INVALID_ARGUMENT', 8);
    } finally {
      await p.close();
    }
  });

  it('refuses what is not a DAR, and damaged packages in one', async function () {
    const p = await start();
    try {
      assertCantonError(await postBytes(p, '/v2/dars', new TextEncoder().encode('not a zip')), 400, 'INVALID_DAR', 8);
      assertCantonError(await postBytes(p, '/v2/dars', new Uint8Array()), 400, 'INVALID_DAR', 8);
      const manifest = new TextEncoder().encode('Manifest-Version: 1.0\nMain-Dalf: main.dalf\n');
      const damaged = darOf({ 'META-INF/MANIFEST.MF': manifest, 'main.dalf': new Uint8Array([0x0a, 0x05, 1, 2]) });
      assertCantonError(await postBytes(p, '/v2/dars', damaged), 400, 'DAR_PARSE_ERROR', 8);
      assertCantonError(await postBytes(p, '/v2/dars/validate', damaged), 400, 'DAR_PARSE_ERROR', 8);
      assert.equal((await get(p, '/v2/packages')).json.packageIds.length, CATALOG.length, 'nothing was added');
    } finally {
      await p.close();
    }
  });

  it('POST /v2/dars/validate is a dry run', async function () {
    const ping = requireDarBytes(this, DARS.ping);
    const p = await start();
    try {
      const reply = await postBytes(p, '/v2/dars/validate', ping);
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.text, '');
      assert.ok(!(await get(p, '/v2/packages')).json.packageIds.includes(requireDar(this, DARS.ping).mainPackageId));
    } finally {
      await p.close();
    }
  });

  it('needs a synchronizerId to vet when connected to two synchronizers', async function () {
    const ping = requireDarBytes(this, DARS.ping);
    const p = await start({ synchronizers: 2 });
    try {
      assertCantonError(await postBytes(p, '/v2/dars', ping), 400, 'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER', 9);
      const second = p.state.synchronizers[1].id;
      assert.equal((await postBytes(p, '/v2/dars', ping, { query: { synchronizerId: second } })).status, 200);
      assert.ok(p.state.vetting(second)!.packages.has(requireDar(this, DARS.ping).mainPackageId));
      assert.ok(!p.state.vetting(p.state.synchronizers[0].id)!.packages.has(requireDar(this, DARS.ping).mainPackageId));
    } finally {
      await p.close();
    }
  });

  it('3.3: only POST /v2/packages, which vets on every synchronizer; no /v2/dars, no validate', async function () {
    const ping = requireDarBytes(this, DARS.ping);
    const p = await start({ apiVersion: '3.3', synchronizers: 2 });
    try {
      assert.equal((await postBytes(p, '/v2/dars', ping)).status, 404);
      assert.equal((await postBytes(p, '/v2/dars/validate', ping)).status, 404);
      assert.equal((await postBytes(p, '/v2/packages', ping)).status, 200);
      for (const sync of p.state.synchronizers) assert.ok(p.state.vetting(sync.id)!.packages.has(requireDar(this, DARS.ping).mainPackageId));
    } finally {
      await p.close();
    }
  });

  it('uploading needs participant admin rights', async function () {
    const ping = requireDarBytes(this, DARS.ping);
    const p = await start({ auth: { secret: 'upload-secret' } });
    try {
      const alice = await p.mintToken('alice');
      assert.equal((await postBytes(p, '/v2/dars', ping, { token: alice })).status, 403);
      assert.equal((await postBytes(p, '/v2/dars/validate', ping, { token: alice })).status, 403);
      assert.equal((await get(p, `/v2/packages/${IOU.pkg.id}`, { token: alice })).status, 200, 'any user may download');
      assert.equal((await postBytes(p, '/v2/dars', ping, { token: await p.mintToken('demo-admin') })).status, 200);
    } finally {
      await p.close();
    }
  });
});

