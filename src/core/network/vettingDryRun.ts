/**
 * A vetting change judged across the network before it is applied: the participant computes the new
 * state (a dry run of the update), and for every party it hosts, the versions that party could use
 * before (every host has them) and would lose after. A party on several participants loses a version
 * when any one of its hosts stops vetting it: that is what this shows and one participant alone cannot.
 */
import type { CallOptions } from '../api/http';
import type * as wire from '../models/wire';
import { describePackage } from '../models/vetting';
import { comparePackageVersions } from '../daml/packageVersions';
import { describeNetworkProblem, labelOfParticipant, vettedByParty, type NetworkMember, type NetworkProblem, type NetworkSnapshot } from './model';
import { isJsonObject, JsonDocument, rangeOf } from '../files/jsonDocument';
import type { Problem } from '../files/problems';
import { getOrCreate } from '../maps';
import { networkProblem, readNetwork } from './read';

export interface VettingLoss {
  party: string;
  packageName: string;
  /** Versions every host of the party has now, highest first. */
  before: string[];
  /** The same after the change: empty means commands of the party on this package will fail. */
  after: string[];
}

export interface VettingDryRunResult {
  participantId?: string;
  /** What the change adds and removes on its participant (`describePackage` form). */
  added: string[];
  removed: string[];
  losses: VettingLoss[];
  /** The parties judged (hosted on the participant, or the ones asked about). */
  parties: string[];
  problems: NetworkProblem[];
}

/**
 * Runs `request` as a dry run on `target` and judges it for the parties `target` hosts (or
 * `o.parties`), reading the network through `members` (`target` is read too).
 */
export async function vettingDryRun(request: wire.UpdateVettedPackagesRequest, target: NetworkMember, members: readonly NetworkMember[], o: CallOptions & { parties?: readonly string[] } = {}): Promise<VettingDryRunResult> {
  const result = await target.client.updateVettedPackages({ ...request, dryRun: true }, o);
  const participantId = result.next.participantId;
  const problems: NetworkProblem[] = [];
  let parties = o.parties ? [...o.parties] : undefined;
  if (!parties) {
    try {
      parties = (await target.client.parties(o)).filter((p) => p.isLocal !== false).map((p) => p.party);
    } catch (e) {
      problems.push(networkProblem(target.label, 'hosting', e));
      parties = [];
    }
  }
  const readers = members.includes(target) ? members : [target, ...members];
  const now = await readNetwork(readers, { ...o, parties });
  problems.push(...now.problems);
  const after: NetworkSnapshot = {
    ...now,
    vetting: new Map([...now.vetting, [participantId, [{ ...result.next, participantId }]]]),
  };
  const touched = new Set([...result.diff.removed, ...result.diff.validityChanged.map((c) => c.before)].map((p) => p.packageName).filter((n): n is string => !!n));
  const losses: VettingLoss[] = [];
  for (const party of parties) {
    if (!now.hosting.get(party)?.hosts.some((h) => h.participantId === participantId)) continue;
    const versions = (snapshot: NetworkSnapshot, name: string) =>
      [...new Set((vettedByParty(snapshot, party) ?? []).filter((p) => p.packageName === name).map((p) => p.packageVersion))].sort((a, b) => comparePackageVersions(b, a));
    for (const packageName of [...touched].sort()) {
      const before = versions(now, packageName);
      const later = versions(after, packageName);
      if (before.some((v) => !later.includes(v))) losses.push({ party, packageName, before, after: later });
    }
  }
  return { participantId, added: result.diff.added.map(describePackage), removed: result.diff.removed.map(describePackage), losses, parties, problems };
}

/** One line per loss, for people. */
export function describeLoss(l: VettingLoss, participantId?: string): string {
  const party = l.party.split('::', 1)[0];
  const where = participantId ? ` (hosted on ${labelOfParticipant(participantId)})` : '';
  const lost = l.before.filter((v) => !l.after.includes(v));
  return l.after.length === 0
    ? `${party}${where} could no longer use any version of ${l.packageName} (now ${l.before.join(', ')}): its commands on it would fail.`
    : `${party}${where} would lose ${l.packageName} ${lost.join(', ')}; ${l.after.join(', ')} stays usable.`;
}

/**
 * Each loss as a problem where the vetting file changes its package name (every Unvet or change of
 * validity naming it; the top of the file when none does): an error when the party is left with no
 * version, a warning when another stays usable.
 */
export function vettingLossProblems(text: string, r: VettingDryRunResult): Problem[] {
  const doc = new JsonDocument(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const sites = new Map<string, string[]>();
  const changes = isJsonObject(value) && Array.isArray(value.changes) ? value.changes : [];
  changes.forEach((change, i) => {
    const operation = isJsonObject(change) && isJsonObject(change.operation) ? change.operation : undefined;
    for (const [op, body] of Object.entries(operation ?? {})) {
      const packages = isJsonObject(body) && isJsonObject(body.value) && Array.isArray(body.value.packages) ? body.value.packages : [];
      packages.forEach((ref, j) => {
        if (isJsonObject(ref) && typeof ref.packageName === 'string') getOrCreate(sites, ref.packageName, () => []).push(`/changes/${i}/operation/${op}/value/packages/${j}`);
      });
    }
  });
  const problems: Problem[] = [];
  for (const loss of r.losses) {
    for (const pointer of sites.get(loss.packageName) ?? ['']) {
      const node = pointer ? doc.nodeAt(pointer) : undefined;
      const { offset, length } = node ? rangeOf(node) : { offset: 0, length: 0 };
      const start = doc.position(offset);
      const end = doc.position(offset + length);
      problems.push({ path: pointer, message: describeLoss(loss, r.participantId), severity: loss.after.length === 0 ? 'error' : 'warning', code: 'vetting-loss', offset, length, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, data: { party: loss.party, packageName: loss.packageName } });
    }
  }
  return problems.sort((a, b) => a.offset - b.offset);
}

/** The dry run across the network as a Markdown report. */
export function vettingDryRunMarkdown(file: string, members: readonly string[], r: VettingDryRunResult): string {
  const lines = [`# ${file} across the network: nothing was changed`, '', `Dry run on ${members[0] ?? '?'}${r.participantId ? ` (${labelOfParticipant(r.participantId)})` : ''}; the network read from ${members.join(', ')}.`, ''];
  lines.push(r.losses.length === 0 ? `**No party loses a usable version** (${r.parties.length} part${r.parties.length === 1 ? 'y' : 'ies'} judged).` : `**${r.losses.length} loss${r.losses.length === 1 ? '' : 'es'}:**`, '');
  for (const l of r.losses) lines.push(`- ${describeLoss(l, r.participantId)}`);
  if (r.added.length > 0 || r.removed.length > 0) lines.push('', '## The change', '', ...r.added.map((p) => `- added: ${p}`), ...r.removed.map((p) => `- removed: ${p}`));
  if (r.problems.length > 0) lines.push('', '## Not read', '', ...r.problems.map((p) => `- ${describeNetworkProblem(p)}`));
  lines.push('');
  return lines.join('\n');
}
