/**
 * The Network view's rows (plain data, no `vscode`): the participants with the parties each hosts and
 * their permission, and the vetting matrix (package name → version → the participants that vetted
 * it), a drifting package name marked with the parties it drifts for. What could not be read is the
 * glue's to show (its one error-row kit), from `snapshot.problems`.
 */
import { getOrCreate } from '../maps';
import type { LedgerRow } from '../rows';
import { hostOf, labelOfParticipant, vettingDrift, vettingMatrix, type HostPermission, type NetworkSnapshot, type VettingDrift } from './model';

const WARNING_COLOR = 'list.warningForeground';

/** The two groups of the view: "Participants" and "Vetting". */
export function networkRows(snapshot: NetworkSnapshot): LedgerRow[] {
  const drifts = vettingDrift(snapshot);
  const participants = participantRows(snapshot);
  const vetting = vettingRows(snapshot, drifts);
  const drifting = vetting.filter((r) => r.icon === 'warning').length;
  return [
    { key: 'participants', kind: 'group', label: 'Participants', description: `${participants.length}`, icon: 'server-environment', expanded: true, children: () => participants },
    {
      key: 'vetting',
      kind: 'group',
      label: 'Vetting',
      description: `${vetting.length} package name${vetting.length === 1 ? '' : 's'}${drifting ? ` · ${drifting} drifting` : ''}`,
      tooltip: 'Package name × version × participant. A package name drifts when the hosts of one party have vetted different versions of it: a command of that party can only use the versions every host has.',
      icon: drifting ? 'warning' : 'package',
      iconColor: drifting ? WARNING_COLOR : undefined,
      expanded: true,
      children: () => vetting,
    },
  ];
}

/** Each participant (members first, then those only the topology names), with the parties it hosts. */
export function participantRows(snapshot: NetworkSnapshot): LedgerRow[] {
  const hosted = new Map<string, Array<{ party: string; permission: HostPermission; others: string[] }>>();
  for (const [party, { hosts }] of snapshot.hosting) {
    for (const h of hosts) {
      const others = [...new Set(hosts.filter((o) => o.participantId !== h.participantId).map((o) => hostOf(snapshot, o.participantId).label))];
      getOrCreate(hosted, h.participantId, () => []).push({ party, permission: h.permission, others });
    }
  }
  // A member that did not answer appears as the topology names it: said so, not as "no connection".
  const silent = new Set(snapshot.problems.flatMap((p) => (p.kind === 'unreachable' ? [p.member] : [])));
  return snapshot.hosts.map((host) => {
    const parties = (hosted.get(host.participantId) ?? []).sort((a, b) => (a.party < b.party ? -1 : a.party > b.party ? 1 : 0));
    // A participant we hold no connection to: only the parties some member lists are known to be on it.
    const what = host.member ? `Canton ${host.version}` : silent.has(host.label) ? 'did not answer: as the others tell' : 'no connection: named by the topology';
    const count = parties.length || host.member ? ` · ${parties.length} part${parties.length === 1 ? 'y' : 'ies'}` : '';
    return {
      key: host.participantId,
      kind: 'network.participant',
      label: host.label,
      description: `${what}${count}`,
      tooltip: `**${host.label}**\n\nParticipant \`${host.participantId}\`${host.member ? `\n\nConnection: ${host.member} · Canton ${host.version}` : ''}`,
      icon: host.member ? 'server' : silent.has(host.label) ? 'debug-disconnect' : 'server-process',
      copyValue: host.participantId,
      expanded: true,
      children: () =>
        parties.map(({ party, permission, others }) => ({
          key: party,
          kind: 'network.party' as const,
          label: labelOfParticipant(party),
          description: `${permission}${others.length ? ` · also on ${others.join(', ')}` : ''}`,
          tooltip: `\`${party}\`\n\nHosted on ${host.label} with ${permission} permission${others.length ? `; also on ${others.join(', ')}` : ''}.`,
          icon: permission === 'submission' ? 'person' : 'eye',
          copyValue: party,
        })),
    };
  });
}

/** Package name → version → the participants that vetted it; a name that drifts for some party is marked. */
export function vettingRows(snapshot: NetworkSnapshot, drifts: readonly VettingDrift[] = vettingDrift(snapshot)): LedgerRow[] {
  const matrix = vettingMatrix(snapshot, drifts);
  const labels = new Map(matrix.participants.map((p) => [p.participantId, p.label]));
  const read = matrix.participants.filter((p) => p.read);
  const driftsByName = new Map<string, VettingDrift[]>();
  for (const d of drifts) getOrCreate(driftsByName, d.packageName, () => []).push(d);
  return matrix.rows.map((row) => {
    const rowDrifts = driftsByName.get(row.packageName) ?? [];
    const parties = [...new Set(rowDrifts.map((d) => labelOfParticipant(d.party)))];
    return {
      key: row.packageName,
      kind: 'package',
      label: row.packageName,
      description: row.drift ? `drift for ${parties.join(', ')}` : `${row.versions.length} version${row.versions.length === 1 ? '' : 's'}`,
      tooltip: row.drift ? rowDrifts.map(driftText).join('\n\n') : undefined,
      icon: row.drift ? 'warning' : 'package',
      iconColor: row.drift ? WARNING_COLOR : undefined,
      copyValue: row.packageName,
      expanded: row.drift,
      children: () =>
        row.versions.map((v) => {
          const missing = read.filter((p) => !v.vettedOn.includes(p.participantId)).map((p) => p.label);
          return {
            key: v.packageVersion,
            kind: 'package' as const,
            label: v.packageVersion || '(no version)',
            description: `${v.vettedOn.map((id) => labels.get(id) ?? labelOfParticipant(id)).join(', ')}${missing.length ? ` · not on ${missing.join(', ')}` : ''}`,
            tooltip: `Vetted on: ${v.vettedOn.map((id) => labels.get(id)).join(', ')}${missing.length ? `\n\nNot vetted on: ${missing.join(', ')}` : ''}\n\nPackage id${v.packageIds.length === 1 ? '' : 's'}: ${v.packageIds.map((id) => `\`${id}\``).join(', ')}`,
            icon: missing.length ? 'circle-large-outline' : 'pass',
            packageId: v.packageIds[0],
          };
        }),
    };
  });
}

/** "Alice: app-user has 2.0.0, 1.0.0; app-provider has 1.0.0 (in common: 1.0.0)". */
export function driftText(d: VettingDrift): string {
  const hosts = d.hosts.map((h) => `${h.label} has ${h.versions.join(', ') || 'none'}`).join('; ');
  return `${labelOfParticipant(d.party)} (\`${d.party}\`): ${hosts} — in common: ${d.common.join(', ') || 'none, so no command of this party can use it'}`;
}

/** A synchronizer as a participant names it: its id and the alias that participant gave it. */
export interface NamedSynchronizer {
  id: string;
  alias?: string;
}

/**
 * The heading of one network of the Network view ({@link networksOf}'s group): named by its
 * synchronizers (the alias a participant gave each, else the name part of its id), with its
 * participants. A network whose synchronizers are not known says so.
 */
export function networkHeading(synchronizers: readonly NamedSynchronizer[], participants: readonly string[]): { label: string; description: string; tooltip: string } {
  const count = `${participants.length} participant${participants.length === 1 ? '' : 's'}`;
  if (synchronizers.length === 0) {
    return {
      label: 'Synchronizer not known',
      description: participants.join(', '),
      tooltip: `${participants.join(', ')} did not say which synchronizers ${participants.length === 1 ? 'it is' : 'they are'} connected to (not connected to one yet, or the token may not ask): read as a network of ${participants.length === 1 ? 'its' : 'their'} own.`,
    };
  }
  const names = synchronizers.map((s) => s.alias || labelOfParticipant(s.id));
  return {
    label: names.join(' + '),
    description: `${count} · ${synchronizers.map((s) => shortSynchronizerId(s.id)).join(', ')}`,
    tooltip: `**${names.join(' + ')}**\n\nSynchronizer${synchronizers.length === 1 ? '' : 's'}: ${synchronizers.map((s) => `\`${s.id}\``).join(', ')}\n\n${count}: ${participants.join(', ')}. Parties, their hosts and the vetting are read within this network only.`,
  };
}

/** `global-domain::1220ab12…`: the name part and the start of the fingerprint. */
function shortSynchronizerId(id: string): string {
  const [name, fingerprint] = id.split('::', 2);
  return fingerprint === undefined ? id : `${name}::${fingerprint.slice(0, 8)}…`;
}
