// The sides of Compare Parties across participants as people name them, on the demo network: a party
// at a participant (its URL, host:port label, or participant name), or a party alone on the first
// participant given that hosts it; what cannot be placed is refused, naming what there is.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { RequestValidationError } from '../../../src/core/errors';
import { parseSide, sidesOnParticipants, type SideParticipant } from '../../../src/core/updates/compareAcross';
import type { DemoNetwork } from '../../../src/participant/network/index';
import { startCheckedNetwork } from '../../support/demoNetwork';

describe('Compare Parties across participants: placing each side', () => {
  let net: DemoNetwork;
  let participants: SideParticipant[];
  before(async () => {
    net = await startCheckedNetwork({ seed: false });
    participants = ['app-provider', 'app-user', 'sv'].map((name) => {
      const url = net.participant(name).url;
      return { label: new URL(url).host, url, client: new LedgerClient({ baseUrl: url }) };
    });
  });
  after(() => net.close());

  const placed = async (specs: string[], on = participants) => (await sidesOnParticipants(specs, on)).map((s) => [s.party.split('::')[0], s.label]);
  const host = (i: number) => participants[i].label;

  it('reads party@where: where is a URL given (with or without a trailing slash), its host:port, or its participant’s name', async () => {
    assert.deepEqual(parseSide('Alice@app-user'), { party: 'Alice', at: 'app-user' });
    assert.deepEqual(parseSide(' Alice '), { party: 'Alice' });
    assert.deepEqual(parseSide('Alice@http://u@h:1'), { party: 'Alice', at: 'http://u@h:1' }, 'a party id has no @: the first one ends it');
    assert.deepEqual(await placed(['Alice@app-provider', `Bob@${participants[1].url}/`, `Charlie@${host(2)}`]), [
      ['Alice', host(0)],
      ['Bob', host(1)],
      ['Charlie', host(2)],
    ]);
  });

  it('places a party alone on the first participant given that hosts it (full id or hint)', async () => {
    assert.deepEqual(await placed(['Bank', net.parties.bob, 'Charlie']), [['Bank', host(0)], ['Bob', host(1)], ['Charlie', host(2)]]);
    // Alice is on app-provider and app-user: the first given of them.
    assert.deepEqual(await placed(['Alice', 'Bob'], [participants[1], participants[0]]), [['Alice', host(1)], ['Bob', host(1)]]);
    assert.deepEqual(await placed(['Alice', 'Bob']), [['Alice', host(0)], ['Bob', host(1)]]);
  });

  it('one participant: every party is read on it, as the single-participant comparison always did', async () => {
    assert.deepEqual(await placed(['Alice', 'Bank', net.parties.charlie], [participants[0]]), [['Alice', host(0)], ['Bank', host(0)], ['Charlie', host(0)]]);
  });

  it('refuses a party no participant given hosts, and a participant that was not given, naming what there is', async () => {
    await assert.rejects(sidesOnParticipants(['Charlie', 'Bank'], participants.slice(0, 2)), (e: unknown) => e instanceof RequestValidationError && /No participant given hosts a party called Charlie/.test(e.message));
    await assert.rejects(
      sidesOnParticipants(['Bob@nowhere', 'Bank'], participants),
      (e: unknown) => e instanceof RequestValidationError && e.message.includes(`No participant given is nowhere: they are ${host(0)} (app-provider), ${host(1)} (app-user), ${host(2)} (sv)`),
    );
    await assert.rejects(sidesOnParticipants(['Zoe@app-user', 'Bank'], participants), /No known party is called Zoe/);
    await assert.rejects(sidesOnParticipants(['@app-user', 'Bank'], participants), /names no party/);
  });
});
