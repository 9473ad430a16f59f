import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoParticipant } from '../../src/participant/index';
import { CATALOG, HOLDING_INTERFACE_ID, IOU, LEGACY_CATALOG_IDS, PRE_CONTROLLERS_IDS, PRE_HOLDING_IOU_IDS } from '../../src/participant/catalog';
import { DARS, requireDar, requireDarBytes } from '../support/dars';
import { waitFor } from '../support/waitFor';
import { createIou, createdEvents, eventFormat, get, post, postBytes, start, submit, transactionsFormat } from './helpers';

describe('demo participant: persistence', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'demo-participant-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('saves on change and on close, and serves the same ledger after a restart', async () => {
    const statePath = join(dir, 'state.json');
    const first = await start({ statePath, synchronizers: 2 });
    const [iou] = createdEvents(await submit(first, [first.parties.bank], [createIou(first.parties.bank, first.parties.alice, '31.4')], { extra: { commandId: 'persisted' } }));
    first.state.prune(3);
    // Saved 200 ms after the change, before any close: waited for as a state (the write's own time
    // depends on the machine).
    await waitFor(() => existsSync(statePath) && readFileSync(statePath, 'utf8').includes(iou.contractId), 'saved shortly after the change');
    const body = { beginExclusive: 3, endInclusive: first.state.ledgerEnd, updateFormat: { ...transactionsFormat('any', 'LEDGER_EFFECTS'), includeReassignments: eventFormat('any') } };
    const before = await post(first, '/v2/updates', body);
    const participantId = first.participantId;
    await first.close();

    const second = await startDemoParticipant({ statePath, seed: 999 });
    try {
      assert.equal(second.participantId, participantId, 'the saved identity wins over the seed');
      assert.deepEqual(second.parties, first.parties);
      assert.equal(second.state.synchronizers.length, 2);
      assert.equal(second.state.prunedUpTo, 3);
      const after = await post(second, '/v2/updates', body);
      assert.equal(after.status, 200);
      assert.deepEqual(after.json, before.json);
      const events = await post(second, '/v2/events/events-by-contract-id', { contractId: iou.contractId, eventFormat: eventFormat('any') });
      assert.equal(events.status, 200);
      // Deduplication state survives, and new ids do not collide with old ones.
      const again = await post(second, '/v2/commands/submit-and-wait', { commandId: 'persisted', actAs: [second.parties.bank], commands: [createIou(second.parties.bank, second.parties.alice)] });
      assert.equal(again.status, 409);
      const fresh = await submit(second, [second.parties.bank], [createIou(second.parties.bank, second.parties.alice)]);
      assert.ok(!second.state.entries.slice(0, -1).some((e) => e.kind === 'transaction' && e.updateId === fresh.updateId));
      // The refused duplicate took an offset too (its rejected completion).
      assert.equal(fresh.offset, first.state.ledgerEnd + 2);
    } finally {
      await second.close();
    }
  });

  it('keeps uploaded packages, and contracts of their templates, across a restart', async function () {
    const statePath = join(dir, 'state.json');
    const ping = requireDar(this, DARS.ping);
    const first = await start({ statePath });
    assert.equal((await postBytes(first, '/v2/dars', requireDarBytes(this, DARS.ping))).status, 200);
    const args = { id: 'kept', initiator: first.parties.alice, responder: first.parties.alice };
    const [created] = createdEvents(await submit(first, [first.parties.alice], [{ CreateCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping', createArguments: args } }]));
    await first.close();
    const second = await startDemoParticipant({ statePath });
    try {
      assert.ok((await get(second, '/v2/packages')).json.packageIds.includes(ping.mainPackageId));
      const events = await post(second, '/v2/events/events-by-contract-id', { contractId: created.contractId, eventFormat: eventFormat('any') });
      assert.deepEqual(events.json.created.createdEvent.createArgument, args);
    } finally {
      await second.close();
    }
  });

  it('reads state files of the previous format, whose catalog package ids were not yet real', async () => {
    const statePath = join(dir, 'state.json');
    const first = await start({ statePath });
    const [iou] = createdEvents(await submit(first, [first.parties.bank], [createIou(first.parties.bank, first.parties.alice)]));
    await first.close();
    // What an earlier version wrote: format 1, the catalog named by sha256(name + version).
    let text = readFileSync(statePath, 'utf8');
    for (const [legacy, real] of LEGACY_CATALOG_IDS) text = text.split(real).join(legacy);
    const legacyState = { ...JSON.parse(text), format: 1 };
    delete legacyState.packages;
    writeFileSync(statePath, JSON.stringify(legacyState));
    assert.ok(!readFileSync(statePath, 'utf8').includes(IOU.pkg.id));
    const second = await startDemoParticipant({ statePath });
    try {
      const events = await post(second, '/v2/events/events-by-contract-id', { contractId: iou.contractId, eventFormat: eventFormat('any') });
      assert.equal(events.json.created.createdEvent.templateId, IOU.id);
      assert.ok(second.state.vetting(second.state.synchronizers[0].id)!.packages.has(IOU.pkg.id));
    } finally {
      await second.close();
    }
  });

  it('reads state files of format 2, from before Iou implemented Holding: its contracts are Holdings, demo-holding is vetted with demo-iou', async () => {
    const statePath = join(dir, 'state.json');
    const first = await start({ statePath });
    const [iou] = createdEvents(await submit(first, [first.parties.bank], [createIou(first.parties.bank, first.parties.alice, '5')]));
    await first.close();
    const holding = CATALOG.find((x) => x.name === 'demo-holding')!.id;
    // What the previous version wrote: format 2, demo-iou by its ids of then, and no demo-holding.
    const saved = JSON.parse(readFileSync(statePath, 'utf8'));
    for (const [, v] of saved.vetting) v.packages = v.packages.filter(([id]: [string]) => id !== holding);
    let text = JSON.stringify({ ...saved, format: 2 });
    for (const [previous, current] of PRE_HOLDING_IOU_IDS) text = text.split(current).join(previous);
    writeFileSync(statePath, text);
    assert.ok(!text.includes(IOU.pkg.id) && !text.includes(holding));
    const second = await startDemoParticipant({ statePath });
    try {
      const filter = { cumulative: [{ identifierFilter: { InterfaceFilter: { value: { interfaceId: '#demo-holding:Holding:Holding', includeInterfaceView: true } } } }] };
      const events = await post(second, '/v2/events/events-by-contract-id', { contractId: iou.contractId, eventFormat: eventFormat('any', filter) });
      assert.equal(events.json.created.createdEvent.templateId, IOU.id);
      assert.equal(events.json.created.createdEvent.interfaceViews[0].interfaceId, HOLDING_INTERFACE_ID);
      const vetted = second.state.vetting(second.state.synchronizers[0].id)!.packages;
      assert.ok(vetted.has(IOU.pkg.id) && vetted.has(holding));
    } finally {
      await second.close();
    }
  });

  it('reads state files of format 3, from before the choices carried controllers: the catalog by its ids of then', async () => {
    const statePath = join(dir, 'state.json');
    const first = await start({ statePath });
    const [iou] = createdEvents(await submit(first, [first.parties.bank], [createIou(first.parties.bank, first.parties.alice, '6')]));
    await first.close();
    let text = JSON.stringify({ ...JSON.parse(readFileSync(statePath, 'utf8')), format: 3 });
    for (const [previous, current] of PRE_CONTROLLERS_IDS) text = text.split(current).join(previous);
    writeFileSync(statePath, text);
    assert.ok(!text.includes(IOU.pkg.id));
    const second = await startDemoParticipant({ statePath });
    try {
      const events = await post(second, '/v2/events/events-by-contract-id', { contractId: iou.contractId, eventFormat: eventFormat('any') });
      assert.equal(events.json.created.createdEvent.templateId, IOU.id);
      const vetted = second.state.vetting(second.state.synchronizers[0].id)!.packages;
      for (const current of PRE_CONTROLLERS_IDS.values()) if (CATALOG.find((x) => x.id === current)?.version === '1.0.0') assert.ok(vetted.has(current), current);
    } finally {
      await second.close();
    }
  });

  it('refuses a state file it cannot read', async () => {
    const statePath = join(dir, 'broken.json');
    writeFileSync(statePath, JSON.stringify({ format: 99 }));
    await assert.rejects(startDemoParticipant({ statePath }), /unsupported demo participant state format 99/);
  });
});
