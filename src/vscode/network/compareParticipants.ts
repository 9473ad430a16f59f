import type * as vscode from 'vscode';
import type { LedgerConnection } from '../../core/ledger/connection';
import { compareHosts, hostsComparisonJson, type HostsComparison } from '../../core/network/compareHosts';
import { labelOfParticipant, type NetworkSnapshot } from '../../core/network/model';
import type { JsonDocuments } from '../kit/documents';
import type { Prompts } from '../kit/prompts';
import type { ViewNode } from '../kit/rowsTree';
import type { NetworkView } from './view';

interface PartyItem extends vscode.QuickPickItem {
  party: string;
}
interface HostItem extends vscode.QuickPickItem {
  connection: LedgerConnection;
}

/**
 * Compare Participants: a party's transactions on two of its hosts side by side, a consistency check
 * (core: compareHosts). The party is the Network view's row, else asked among those hosted on two or
 * more connected participants; the hosts, when there are more than two, are asked. The result opens
 * as a read-only JSON document, its verdict first.
 */
export async function compareParticipants(
  deps: { view: NetworkView; prompts: Pick<Prompts, 'pick' | 'message' | 'progress'>; documents: Pick<JsonDocuments, 'show'> },
  node?: ViewNode,
): Promise<HostsComparison | undefined> {
  const read = await deps.view.snapshot();
  if (!read) {
    await deps.prompts.message('info', 'Compare Participants: connect to two or more participants that host a party first (or Start Demo Network).', []);
    return undefined;
  }
  const { snapshot, members } = read;
  const hostsOf = (party: string) =>
    (snapshot.hosting.get(party)?.hosts ?? []).flatMap((h) => {
      const member = snapshot.hosts.find((x) => x.participantId === h.participantId)?.member;
      const connection = member === undefined ? undefined : members.find((c) => c.profile.name === member);
      return connection ? [{ connection, permission: h.permission }] : [];
    });
  const fromRow = node?.type === 'row' && node.row.key && snapshot.hosting.has(node.row.key) ? node.row.key : undefined;
  const party = fromRow ?? (await pickParty(snapshot, hostsOf, deps.prompts));
  if (!party) return undefined;
  const hosts = hostsOf(party);
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

async function pickParty(snapshot: NetworkSnapshot, hostsOf: (party: string) => Array<{ connection: LedgerConnection }>, prompts: Pick<Prompts, 'pick' | 'message'>): Promise<string | undefined> {
  const items: PartyItem[] = [...snapshot.hosting.keys()]
    .map((party) => ({ party, hosts: hostsOf(party) }))
    .filter((p) => p.hosts.length >= 2)
    .map(({ party, hosts }) => ({ label: labelOfParticipant(party), description: hosts.map((h) => h.connection.profile.name).join(', '), detail: party, party }));
  if (items.length === 0) {
    await prompts.message('info', 'Compare Participants: no party is hosted on two or more of the connected participants.', []);
    return undefined;
  }
  return (await prompts.pick(items, { title: 'Compare Participants: which party?', matchOnDescription: true, matchOnDetail: true }))?.party;
}
