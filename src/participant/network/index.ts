/**
 * A demo network shaped like Canton's LocalNet: several demo participants on one synchronizer, each
 * with its own JSON Ledger API port, users, token secret, packages and vetting, sharing one topology.
 * Parties are hosted on one or more of them with a permission; a committed transaction reaches every
 * participant hosting one of its informees, each as its own projection; a submission is refused as
 * Canton refuses it when a host of an informee has not vetted a package it needs. Like the single
 * demo participant, a SIMULATOR for development and tests.
 */
import type { AuthConfig } from '../auth';
import { loadDars, serveDemoLedger, type DemoParticipant, type DemoParticipantOptions, type LoadedDar } from '../index';
import { newDemoLedgerData } from '../ledger';
import type { Permission, SynchronizerInfo, UserRight } from '../model';
import { Topology } from '../topology';
import { NetworkLedger } from './ledger';
import { seedNetworkHistory, type NetworkParties } from './seed';

export type { NetworkParties } from './seed';

/** LocalNet's participants, the default of `canton-ledger participant --network`. */
export const LOCALNET_PARTICIPANTS = ['app-provider', 'app-user', 'sv'] as const;

export interface DemoNetworkOptions extends Omit<DemoParticipantOptions, 'port' | 'auth' | 'synchronizers' | 'statePath' | 'pqs' | 'onExchange' | 'dars'> {
  /** One participant per name (letters, digits and dashes), in this order. */
  participants: readonly string[];
  /** The first participant's port; the others take the next ones. 0 (the default): free ports. */
  port?: number;
  /** Each participant's port, in the order of `participants` (0 or absent: a free one), in place of `port`: the editor starts a network again on the ports it had. */
  ports?: readonly number[];
  /** Each participant's own HS256 secret, by name; absent or 'none': no auth anywhere. */
  auth?: Readonly<Record<string, AuthConfig>> | 'none';
  /** DARs uploaded to, and vetted on, every participant. */
  dars?: ReadonlyArray<Uint8Array | string>;
  /** Every exchange of every participant, with the participant's name (for tests that check them against the spec). */
  onExchange?: (name: string, exchange: Parameters<NonNullable<DemoParticipantOptions['onExchange']>>[0]) => void;
}

export interface NetworkParticipant extends DemoParticipant {
  readonly name: string;
}

export interface DemoNetwork {
  readonly participants: readonly NetworkParticipant[];
  readonly synchronizer: SynchronizerInfo;
  /** The seeded parties' ids, and where each is hosted. */
  readonly parties: NetworkParties;
  readonly topology: Topology;
  /** The main packages of the DARs every participant loaded. */
  readonly dars: readonly LoadedDar[];
  participant(name: string): NetworkParticipant;
  close(): Promise<void>;
}

/**
 * Where the seeded parties live, by the participants' positions: the first hosts Bank, the first and
 * the second host Alice (the first with confirmation only), the second Bob, the third Charlie (a
 * network of fewer participants wraps around).
 */
const SEED_HOSTING: ReadonlyArray<{ hint: string; hosts: ReadonlyArray<{ at: number; permission: Permission }> }> = [
  { hint: 'Bank', hosts: [{ at: 0, permission: 'SUBMISSION' }] },
  { hint: 'Alice', hosts: [{ at: 1, permission: 'SUBMISSION' }, { at: 0, permission: 'CONFIRMATION' }] },
  { hint: 'Bob', hosts: [{ at: 1, permission: 'SUBMISSION' }] },
  { hint: 'Charlie', hosts: [{ at: 2, permission: 'SUBMISSION' }] },
];

export async function startDemoNetwork(options: DemoNetworkOptions): Promise<DemoNetwork> {
  const names = checkedNames(options.participants);
  const clock = options.clock ?? (() => new Date());
  const seed = options.seed ?? true;
  const idSeed = typeof seed === 'number' ? seed : undefined;
  const topology = new Topology();

  // One synchronizer for all, named as Splice names its own (alias `global`; id `global-domain::1220…`,
  // as Splice's Scan connectivity docs list the Global Synchronizer): never the id of a single demo
  // participant of the same seed (`demo-sync::…`), which shares no topology with the network and so
  // must not be taken for one of its participants.
  const datas = names.map((name, i) => newDemoLedgerData(idSeed === undefined ? undefined : idSeed + 7919 * i, 1, name));
  const fingerprint = datas[0].synchronizers[0].id.split('::')[1];
  const synchronizer: SynchronizerInfo = { alias: 'global', id: `global-domain::${fingerprint}` };
  const ledgers = datas.map((data) => {
    const initial = [...data.vetting.values()][0];
    data.synchronizers = [synchronizer];
    data.vetting = new Map([[synchronizer.id, initial]]);
    const ledger = new NetworkLedger(data, { clock }, topology);
    topology.join(ledger);
    return ledger;
  });

  let dars: LoadedDar[] = [];
  for (const ledger of ledgers) dars = await loadDars(ledger, options.dars ?? []);

  const parties = hostSeedParties(ledgers);
  for (const ledger of ledgers) putSeedUsers(ledger);
  if (seed !== false) seedNetworkHistory(ledgers, parties);

  const started: NetworkParticipant[] = [];
  try {
    for (const [i, ledger] of ledgers.entries()) {
      const name = names[i];
      const auth = options.auth && options.auth !== 'none' ? options.auth[name] : undefined;
      if (options.auth && options.auth !== 'none' && !auth) throw new Error(`demo network: no auth secret for ${name}`);
      const participant = await serveDemoLedger(
        ledger,
        {
          ...options,
          dars: undefined,
          port: options.ports ? (options.ports[i] ?? 0) : options.port ? options.port + i : 0,
          auth: auth ?? 'none',
          logger: options.logger && ((line) => options.logger!(`${name}: ${line}`)),
          onExchange: options.onExchange && ((x) => options.onExchange!(name, x)),
        },
        { topology, dars },
      );
      // The network's parties, not ids in this participant's own namespace.
      started.push(Object.assign(participant, { name, parties: { bank: parties.bank, alice: parties.alice, bob: parties.bob, charlie: parties.charlie } }));
    }
  } catch (e) {
    await Promise.all(started.map((p) => p.close()));
    throw e;
  }

  return {
    participants: started,
    synchronizer,
    parties,
    topology,
    dars,
    participant(name) {
      const found = started.find((p) => p.name === name);
      if (!found) throw new Error(`demo network: no participant named ${name} (there are ${names.join(', ')})`);
      return found;
    },
    async close() {
      await Promise.all(started.map((p) => p.close()));
    },
  };
}

function checkedNames(participants: readonly string[]): string[] {
  if (participants.length === 0) throw new Error('demo network: name at least one participant');
  for (const name of participants) if (!/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(name)) throw new Error(`demo network: "${name}" is not a participant name (letters, digits and dashes)`);
  const twice = participants.find((name, i) => participants.indexOf(name) !== i);
  if (twice) throw new Error(`demo network: the participant name ${twice} is given twice`);
  return [...participants];
}

/** The seeded parties, each in the namespace of its first host, hosted where {@link SEED_HOSTING} says. */
function hostSeedParties(ledgers: readonly NetworkLedger[]): NetworkParties {
  const at = (i: number) => ledgers[i % ledgers.length];
  const ids: Record<string, string> = {};
  const hosting: NetworkParties['hosting'] = {};
  for (const { hint, hosts } of SEED_HOSTING) {
    const first = at(hosts[0].at);
    const party = first.ids.namespacedId(hint, first.state.namespace);
    ids[hint] = party;
    hosting[party] = [];
    for (const host of hosts) {
      const ledger = at(host.at);
      if (ledger.parties.has(party)) continue;
      ledger.hostParty(party, host.permission);
      hosting[party].push({ participant: ledger.participantName, permission: host.permission });
    }
  }
  return { bank: ids.Bank, alice: ids.Alice, bob: ids.Bob, charlie: ids.Charlie, hosting };
}

/**
 * Each participant's users: `demo-admin` (participant admin, reads as any party, acts as every party
 * it hosts with submission), and one user per hosted party named after it (`alice`), acting as it
 * where the participant may submit for it, else reading as it.
 */
function putSeedUsers(ledger: NetworkLedger): void {
  const hosted = [...ledger.parties.values()].filter((p) => !p.revoked);
  const rightFor = (p: (typeof hosted)[number]): UserRight => ({ kind: p.permission === 'SUBMISSION' ? 'CanActAs' : 'CanReadAs', party: p.party });
  ledger.putUser({
    id: 'demo-admin',
    rights: [{ kind: 'ParticipantAdmin' }, { kind: 'CanReadAsAnyParty' }, ...hosted.filter((p) => p.permission === 'SUBMISSION').map(rightFor)],
  });
  for (const p of hosted) ledger.putUser({ id: p.party.split('::', 1)[0].toLowerCase(), primaryParty: p.party, rights: [rightFor(p)] });
}
