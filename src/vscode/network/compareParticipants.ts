import type * as vscode from 'vscode';
import type { LedgerConnection } from '../../core/ledger/connection';
import { compareHosts, hostsComparisonJson, type HostsComparison } from '../../core/network/compareHosts';
import { labelOfParticipant, type NetworkSnapshot } from '../../core/network/model';
import type { JsonDocuments } from '../kit/documents';
import type { Prompts } from '../kit/prompts';
import type { ViewNode } from '../kit/rowsTree';
import type { NetworkRead, NetworkView } from './view';

interface PartyItem extends vscode.QuickPickItem {
  party: string;
  network: Read;
}
/** A network whose read answered. */
type Read = NetworkRead & { snapshot: NetworkSnapshot };

interface HostItem extends vscode.QuickPickItem {
  connection: LedgerConnection;
}

/**
 * Compare Participants: a party's transactions on two of its hosts side by side, a consistency check
 * (core: compareHosts). The party is the Network view's row (its hosts within that row's network),
 * else asked among those hosted on two or more connected participants of one network; the hosts, when there are more than two, are asked. The result opens
 * as a read-only JSON document, its verdict first.
 */
export async function compareParticipants(
  deps: { view: NetworkView; prompts: Pick<Prompts, 'pick' | 'message' | 'progress'>; documents: Pick<JsonDocuments, 'show'> },
  node?: ViewNode,
): Promise<HostsComparison | undefined> {
  // Hosts are counted within one network: a participant of another synchronizer hosts none of its parties.
  const networks = (await deps.view.networks()).filter((n): n is Read => n.snapshot !== undefined);
  if (networks.length === 0) {
    await deps.prompts.message('info', 'Compare Participants: connect to two or more participants that host a party first (or Start Demo Network).', []);
    return undefined;
  }
  const fromNetwork = node && deps.view.networkOf(node, networks);
  const fromRow = node?.type === 'row' && node.row.key && fromNetwork?.snapshot.hosting.has(node.row.key) ? { party: node.row.key, network: fromNetwork } : undefined;
  const chosenParty = fromRow ?? (await pickParty(networks, deps.prompts));
  if (!chosenParty) return undefined;
  const { party, network } = chosenParty;
  const hosts = hostsOf(network, party);
  if (hosts.length < 2) {
    await deps.prompts.message('info', `${labelOfParticipant(party)} is hosted on ${hosts.length === 1 ? `${hosts[0].connection.profile.name} alone` : 'no connected participant'}: there is nothing to compare it with.`, []);
    return undefined;
  }
  let chosen = hosts.map((h) => h.connection);
  if (hosts.length > 2) {
    const items: HostItem[] = hosts.map((h) => ({ label: h.connection.profile.name, description: h.permission, connection: h.connection }));
    const first = await deps.prompts.pick(items, { title: `Compare ${labelOfParticipant(party)}: the first participant` });
    if (!first) return undefined;
    const second = await deps.prompts.pick(items.filter((i) => i !== first), { title: `Compare ${labelOfParticipant(party)} on ${first.label} with` });
    if (!second) return undefined;
    chosen = [first.connection, second.connection];
  }
  const names = chosen.map((c) => c.profile.name);
  const comparison = await deps.prompts.progress(`Comparing ${labelOfParticipant(party)} on ${names.join(' and ')}`, (signal) =>
    compareHosts(party, chosen.map((c) => ({ label: c.profile.name, client: c.client })), { signal }),
  );
  await deps.documents.show('network', `${labelOfParticipant(party)} on ${names.join(' vs ')}`, hostsComparisonJson(comparison));
  return comparison;
}

/** The connected hosts of a party within one network, with their permission. */
function hostsOf(network: Read, party: string): Array<{ connection: LedgerConnection; permission: string }> {
  const { snapshot, members } = network;
  return (snapshot.hosting.get(party)?.hosts ?? []).flatMap((h) => {
    const member = snapshot.hosts.find((x) => x.participantId === h.participantId)?.member;
    const connection = member === undefined ? undefined : members.find((c) => c.profile.name === member);
    return connection ? [{ connection, permission: h.permission }] : [];
  });
}

async function pickParty(networks: ReadonlyArray<Read>, prompts: Pick<Prompts, 'pick' | 'message'>): Promise<{ party: string; network: Read } | undefined> {
  const items: PartyItem[] = networks.flatMap((network) =>
    [...network.snapshot.hosting.keys()]
      .map((party) => ({ party, hosts: hostsOf(network, party) }))
      .filter((p) => p.hosts.length >= 2)
      .map(({ party, hosts }) => ({ label: labelOfParticipant(party), description: hosts.map((h) => h.connection.profile.name).join(', '), detail: party, party, network })),
  );
  if (items.length === 0) {
    await prompts.message('info', 'Compare Participants: no party is hosted on two or more of the connected participants.', []);
    return undefined;
  }
  return prompts.pick(items, { title: 'Compare Participants: which party?', matchOnDescription: true, matchOnDetail: true });
}
