/**
 * The pre-flight of a commands file, before anything is sent: for each package name the file uses,
 * the version Canton will pick for the file's parties, or the exact reason none fits (which party,
 * hosted where, lacks which vetting). Canton decides the version: one `preferred-packages` request
 * per package name to the participant the file is for (the first member); the network is read only
 * to explain a refusal, or, where that participant cannot answer (no such endpoint), to decide from
 * every host's vetting as Canton would. A question that cannot be answered is a warning, never a pass.
 */
import type { CallOptions } from '../api/http';
import { CancelledError, CantonApiError, NotServedError, ProtocolError, UnsupportedOperationError } from '../errors';
import { parseIdentifier } from '../daml/identifiers';
import { commandSites } from '../files/customChecks';
import { isJsonObject, JsonDocument, rangeOf } from '../files/jsonDocument';
import type { Problem, ProblemCode, Severity } from '../files/problems';
import { comparePackageVersions } from '../daml/packageVersions';
import { describeMissingVetting, hostsLackingVersion, missingVetting, type MissingVetting } from './explain';
import { describeNetworkProblem, hostOf, vettedByParty, vettedByHost, type NetworkMember, type NetworkProblem, type NetworkSnapshot } from './model';
import { choosePreferred, type PackageRef } from './preference';
import { networkProblem, readNetwork } from './read';
import { getOrCreate } from '../maps';

export interface PreflightOptions extends CallOptions {
  /** Names and versions of packages by id, for template ids in package-id form (else read from the vetting lists). */
  packageById?: (packageId: string) => PackageRef | undefined;
  /** The informees of the transaction where a preview was made: every host of each must have vetted the packages too. */
  informees?: readonly string[];
}

/** How a package's version was decided. */
export type PreflightSource =
  /** Canton's answer (`preferred-packages` on the first participant). */
  | 'canton'
  /** Computed from every host's vetting, as Canton would: the participant cannot answer `preferred-packages`. */
  | 'vetting'
  /** The file names the package by id: that package, if every host has vetted it. */
  | 'pinned';

export type PackageVerdict =
  | { verdict: 'ok'; packageName: string; parties: string[]; chosen: PackageRef; synchronizerId?: string; source: PreflightSource; notes: string[] }
  | { verdict: 'fails'; packageName: string; parties: string[]; missing: MissingVetting[]; cause?: string; notes: string[] }
  | { verdict: 'unchecked'; packageName: string; parties: string[]; problems: NetworkProblem[]; cause?: string; notes: string[] };

export interface PreflightResult {
  /** Every verdict's problems at the `templateId`s of its commands, sorted by position. */
  problems: Problem[];
  packages: PackageVerdict[];
  /** The file's submitting and reading parties. */
  parties: string[];
  /** Said once for the file: how versions were decided where Canton could not be asked, what was read. */
  notes: string[];
  /** Whether the network was read (to explain, or to decide). */
  networkRead: boolean;
}

/** A party id: a hint, `::`, and the namespace's fingerprint. */
const PARTY_ID = /^[A-Za-z0-9_\-.]+::1220[0-9a-f]{64}$/;

/** A package name (or one package, by id) and the parties whose every host must have vetted the version used. */
export interface VersionGroup {
  packageName: string;
  /** Set for a package-id form `templateId`: Canton uses exactly that package. */
  packageId?: string;
  parties: ReadonlySet<string>;
  /** The version the caller would expect (the highest it knows): when Canton chooses a lower one, the hosts that lack it are named in the verdict's notes. */
  above?: string;
}

interface NameGroup extends VersionGroup {
  pointers: string[];
  parties: Set<string>;
}

export interface DecideVersionsOptions extends CallOptions {
  /** Parties whose hosting is read with the groups' when the network is read (the file's). */
  alsoParties?: readonly string[];
  /** Read the network even when Canton answers every group (to name a package given by id). */
  readNetwork?: boolean;
}

/** The verdict on each group (in the groups' order), what was said once for all, and what was read. */
export interface DecidedVersions {
  verdicts: PackageVerdict[];
  notes: string[];
  /** The network, when it was read (to explain a refusal, or to decide where Canton cannot be asked). */
  snapshot?: NetworkSnapshot;
  /** The members that did not answer (or would not say who they are). */
  unanswered: NetworkProblem[];
}

/**
 * The version of each group's package Canton will use for its parties: one `preferred-packages`
 * request per group to the first member (Canton decides, for the whole topology it knows); the
 * network is read only to explain a refusal, or to decide from every host's vetting where the first
 * member cannot answer (no such endpoint: 3.3), which is said in the notes. The pre-flight of a
 * file and the editor's versions (`preferredVersions.ts`) both ask through here.
 */
export async function decideVersions(groups: readonly VersionGroup[], members: readonly NetworkMember[], o: DecideVersionsOptions = {}): Promise<DecidedVersions> {
  const first = members[0];
  const verdicts = new Map<VersionGroup, PackageVerdict>();
  const needNetwork: VersionGroup[] = [];
  const notes: string[] = [];
  // Every participant named is asked something: one that does not answer is said, even when Canton's
  // answer from the first needs nothing of it.
  const silent: NetworkProblem[] = [];
  const probes = members.slice(1).map((m) =>
    m.client.capabilities(o).then(
      () => undefined,
      (e: unknown) => void silent.push(networkProblem(m.label, 'identity', e)),
    ),
  );
  await Promise.all([
    ...probes,
    ...groups.map(async (group) => {
      const partyList = [...group.parties].sort();
      if (!first) {
        verdicts.set(group, { verdict: 'unchecked', packageName: group.packageName, parties: partyList, problems: [], notes: ['No participant to ask.'] });
        return;
      }
      if (group.packageId) {
        needNetwork.push(group);
        return;
      }
      if (partyList.length === 0) {
        // The request needs at least one party (PackageVettingRequirement.parties: "must be non-empty").
        verdicts.set(group, { verdict: 'unchecked', packageName: group.packageName, parties: partyList, problems: [], notes: ['No party to ask for: the file names none in actAs or readAs.'] });
        return;
      }
      try {
        const answer = await first.client.preferredPackages([{ packageName: group.packageName, parties: partyList }], o);
        const chosen = answer.packageReferences.find((r) => r.packageName === group.packageName) ?? answer.packageReferences[0];
        if (!chosen) throw new ProtocolError(`The answer of ${first.label} to preferred-packages names no package`, { method: 'POST', path: '/v2/interactive-submission/preferred-packages' }, undefined, { problem: 'bad-field', field: 'packageReferences' });
        verdicts.set(group, { verdict: 'ok', packageName: group.packageName, parties: partyList, chosen, synchronizerId: answer.synchronizerId, source: 'canton', notes: [] });
      } catch (e) {
        if (e instanceof CancelledError) throw e;
        if (e instanceof CantonApiError && e.code === 'NO_PREFERRED_PACKAGES_FOUND') {
          verdicts.set(group, { verdict: 'fails', packageName: group.packageName, parties: partyList, missing: [], cause: e.cause_, notes: [] });
          needNetwork.push(group);
        } else if (e instanceof CantonApiError && e.code === 'PACKAGE_NAMES_NOT_FOUND') {
          verdicts.set(group, { verdict: 'fails', packageName: group.packageName, parties: partyList, missing: [], cause: `${first.label} has no package named ${group.packageName} uploaded: ${e.cause_}`, notes: [] });
        } else if (e instanceof UnsupportedOperationError || e instanceof NotServedError) {
          // A release without the endpoint: decide from every host's vetting, and say so.
          const version = e instanceof UnsupportedOperationError ? ` (Canton ${e.version})` : '';
          note(notes, `${first.label}${version} cannot answer preferred-packages: the versions were computed from every host's vetting, as Canton would choose them (without its dependency check).`);
          needNetwork.push(group);
        } else {
          const problem = networkProblem(first.label, 'preference', e);
          verdicts.set(group, { verdict: 'unchecked', packageName: group.packageName, parties: partyList, problems: [problem], notes: [] });
        }
      }
    }),
  ]);

  // Where Canton chose below the version the caller expected: the network says which hosts lack it.
  const passedOver = groups.filter((g) => {
    const v = verdicts.get(g);
    return g.above !== undefined && v?.verdict === 'ok' && comparePackageVersions(g.above, v.chosen.packageVersion) > 0;
  });
  let snapshot: NetworkSnapshot | undefined;
  if (first && (needNetwork.length > 0 || passedOver.length > 0 || o.readNetwork)) {
    const everyParty = [...new Set([...needNetwork.flatMap((g) => [...g.parties]), ...passedOver.flatMap((g) => [...g.parties]), ...(o.alsoParties ?? [])])].sort();
    snapshot = await readNetwork(members, { ...o, parties: everyParty });
    for (const group of needNetwork) verdicts.set(group, decideFromNetwork(snapshot, group, verdicts.get(group)));
    for (const group of passedOver) {
      const v = verdicts.get(group)!;
      verdicts.set(group, { ...v, notes: [...v.notes, ...hostsLackingVersion(snapshot, group.packageName, group.above!, [...group.parties].sort())] });
    }
    if (snapshot.problems.length > 0) note(notes, `Not everything could be read: ${snapshot.problems.map(describeNetworkProblem).join('; ')}.`);
  }
  const unanswered = snapshot ? snapshot.problems.filter((p) => p.kind === 'unreachable' || p.reading === 'identity') : silent;
  return { verdicts: groups.map((g) => verdicts.get(g)!), notes, snapshot, unanswered };
}

export async function preflightCommands(text: string, members: readonly NetworkMember[], o: PreflightOptions = {}): Promise<PreflightResult> {
  // Strict JSON, read at once: the positions (a syntax tree) are worked out while the participants answer.
  let value: unknown;
  try {
    value = members.length === 0 ? undefined : JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    const message = members.length === 0 ? 'Not checked: no participant to ask.' : 'Not checked: the file is not valid JSON (see its other problems).';
    return { problems: [located(new JsonDocument(text), '', 'warning', 'preflight-unchecked', message)], packages: [], parties: [], notes: [], networkRead: false };
  }
  const parties = commandsFileParties(value);

  const groups = new Map<string, NameGroup>();
  const unresolved: Array<{ pointer: string; packageId: string }> = [];
  for (const site of commandSites(value)) {
    const id = typeof site.command.templateId === 'string' ? parseIdentifier(site.command.templateId) : undefined;
    if (!id) continue; // the file check reports it
    const named = partiesIn([site.command.createArguments, site.command.choiceArgument, site.command.contractKey]);
    if (id.form === 'package-id') {
      const known = o.packageById?.(id.packageId);
      if (!known) {
        unresolved.push({ pointer: `${site.pointer}/templateId`, packageId: id.packageId });
        continue;
      }
      addTo(groups, `id:${id.packageId}`, { packageName: known.packageName, packageId: id.packageId }, `${site.pointer}/templateId`, [...parties, ...named, ...(o.informees ?? [])]);
    } else {
      addTo(groups, `name:${id.packageName}`, { packageName: id.packageName }, `${site.pointer}/templateId`, [...parties, ...named, ...(o.informees ?? [])]);
    }
  }

  const groupList = [...groups.values()];
  const deciding = decideVersions(groupList, members, { ...o, alsoParties: parties, readNetwork: unresolved.length > 0 });
  // While the participants answer: the syntax tree and line index the positions come from, once
  // the requests are out (they leave when this turn of the event loop ends).
  await new Promise((resolve) => setImmediate(resolve));
  const doc = new JsonDocument(text);
  doc.position(doc.root ? 0 : 0);
  const { verdicts: decided, notes: fileNotes, snapshot, unanswered } = await deciding;
  const verdicts = new Map(groupList.map((group, i) => [group, decided[i]]));

  const problems: Problem[] = [];
  const packages: PackageVerdict[] = [];
  for (const [group, verdict] of [...verdicts].sort(([a], [b]) => a.packageName.localeCompare(b.packageName))) {
    packages.push(verdict);
    for (const pointer of group.pointers) problems.push(problemOf(doc, pointer, verdict));
  }
  for (const u of unresolved) {
    const known = snapshot && [...snapshot.vetting.values()].flat().flatMap((s) => s.packages).find((p) => p.packageId === u.packageId && p.packageName);
    problems.push(located(doc, u.pointer, 'warning', 'preflight-unchecked', known ? `Not checked: ${u.packageId} is ${known.packageName} ${known.packageVersion ?? ''}; name it by package name (#${known.packageName}:…) to let Canton choose the version.` : `Not checked: no participant read knows the package ${u.packageId}.`));
  }
  for (const p of unanswered) problems.push(located(doc, '', 'warning', 'preflight-unchecked', `Not checked against ${p.member}: ${describeNetworkProblem(p)}.`));
  problems.sort((a, b) => a.offset - b.offset);
  return { problems, packages, parties, notes: fileNotes, networkRead: snapshot !== undefined };
}

function decideFromNetwork(snapshot: NetworkSnapshot, group: VersionGroup, before: PackageVerdict | undefined): PackageVerdict {
  const partyList = [...group.parties].sort();
  const { packageName } = group;
  const unread = (missing: MissingVetting[]) => missing.some((m) => m.kind === 'hosting-unknown' || m.kind === 'vetting-unknown');
  const problemsFor = () => snapshot.problems.filter((p) => !('party' in p) || !p.party || group.parties.has(p.party));
  if (group.packageId) {
    // Pinned: every host of every party must have vetted exactly this package.
    const missing = partyList.flatMap((party) => pinnedMissing(snapshot, party, packageName, group.packageId!));
    const chosen = { packageId: group.packageId, packageName, packageVersion: versionOfId(snapshot, group.packageId) ?? '' };
    if (missing.length === 0) return { verdict: 'ok', packageName, parties: partyList, chosen, source: 'pinned', notes: [] };
    if (unread(missing)) return { verdict: 'unchecked', packageName, parties: partyList, problems: problemsFor(), notes: missing.map(describeMissingVetting) };
    return { verdict: 'fails', packageName, parties: partyList, missing, notes: [] };
  }
  if (before?.verdict === 'fails') {
    // Canton said no: name every host that lacks something.
    const missing = missingVetting(snapshot, packageName, partyList);
    if (unread(missing)) return { ...before, missing: missing.filter((m) => !(m.kind === 'hosting-unknown' || m.kind === 'vetting-unknown')), notes: missing.filter((m) => m.kind === 'hosting-unknown' || m.kind === 'vetting-unknown').map(describeMissingVetting) };
    return { ...before, missing };
  }
  const outcome = choosePreferred(new Map([[packageName, group.parties]]), (party) => vettedByParty(snapshot, party));
  if (outcome.ok) return { verdict: 'ok', packageName, parties: partyList, chosen: outcome.packages[0], source: 'vetting', notes: [] };
  const missing = missingVetting(snapshot, packageName, partyList);
  if (missing.length === 0 || unread(missing)) return { verdict: 'unchecked', packageName, parties: partyList, problems: problemsFor(), notes: missing.map(describeMissingVetting) };
  return { verdict: 'fails', packageName, parties: partyList, missing, notes: [] };
}

function pinnedMissing(snapshot: NetworkSnapshot, party: string, packageName: string, packageId: string): MissingVetting[] {
  const hosting = snapshot.hosting.get(party);
  if (!hosting || !hosting.complete) return [{ kind: 'hosting-unknown', party, problems: snapshot.problems.filter((p) => !('party' in p) || p.party === party) }];
  if (hosting.hosts.length === 0) return [{ kind: 'party-hosted-nowhere', party }];
  return hosting.hosts.flatMap((h): MissingVetting[] => {
    const host = { participantId: h.participantId, label: hostOf(snapshot, h.participantId).label };
    const vetted = vettedByHost(snapshot, h.participantId);
    if (!vetted) return [{ kind: 'vetting-unknown', party, host }];
    return vetted.some((p) => p.packageId === packageId) ? [] : [{ kind: 'host-lacks-package', party, host, permission: h.permission, packageName: `${packageName} (package ${packageId.slice(0, 12)}…)`, elsewhere: [] }];
  });
}

function versionOfId(snapshot: NetworkSnapshot, packageId: string): string | undefined {
  for (const states of snapshot.vetting.values()) for (const s of states) for (const p of s.packages) if (p.packageId === packageId && p.packageVersion) return p.packageVersion;
  return undefined;
}

function problemOf(doc: JsonDocument, pointer: string, v: PackageVerdict): Problem {
  const who = v.parties.map((p) => p.split('::', 1)[0]).join(', ') || 'no party';
  switch (v.verdict) {
    case 'ok': {
      const how = v.source === 'canton' ? 'Canton will use' : v.source === 'vetting' ? 'Canton would choose (from every host\'s vetting)' : 'Every host has vetted';
      return located(doc, pointer, 'info', 'preflight-version', `${how} ${v.packageName} ${v.chosen.packageVersion} (${v.chosen.packageId.slice(0, 12)}…) for ${who}.`, { packageName: v.packageName, packageId: v.chosen.packageId, packageVersion: v.chosen.packageVersion, source: v.source });
    }
    case 'fails': {
      const why = v.missing.length > 0 ? v.missing.map(describeMissingVetting).join(' ') : (v.cause ?? 'the participant found none.');
      return located(doc, pointer, 'error', 'preflight-no-version', `This command will fail: no version of ${v.packageName} is vetted by every participant hosting ${who}. ${why}${v.notes.length > 0 ? ` ${v.notes.join(' ')}` : ''}`, {
        packageName: v.packageName,
        missing: v.missing,
      });
    }
    case 'unchecked':
      return located(doc, pointer, 'warning', 'preflight-unchecked', `Not checked: which version of ${v.packageName} ${who} can use could not be told. ${[...v.problems.map(describeNetworkProblem), ...v.notes].join(' ')}`.trim(), { packageName: v.packageName });
  }
}

function located(doc: JsonDocument, pointer: string, severity: Severity, code: ProblemCode, message: string, data?: Record<string, unknown>): Problem {
  const node = pointer ? doc.nodeAt(pointer) : undefined;
  const { offset, length } = node ? rangeOf(node) : { offset: 0, length: 0 };
  const start = doc.position(offset);
  const end = doc.position(offset + length);
  return { path: pointer, message, severity, code, offset, length, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, ...(data ? { data } : {}) };
}

function addTo(groups: Map<string, NameGroup>, key: string, init: Pick<NameGroup, 'packageName' | 'packageId'>, pointer: string, parties: readonly string[]): void {
  const group = getOrCreate(groups, key, (): NameGroup => ({ ...init, pointers: [], parties: new Set() }));
  group.pointers.push(pointer);
  for (const p of parties) group.parties.add(p);
}

/** A commands file's submitting and reading parties (`actAs`, then `readAs`, once each), from its value (a JsCommands, or a JsCommands under `commands`). */
export function commandsFileParties(value: unknown): string[] {
  const jsCommands = isJsonObject(value) && isJsonObject(value.commands) ? value.commands : value;
  return isJsonObject(jsCommands) ? [...new Set([...strings(jsCommands.actAs), ...strings(jsCommands.readAs)])] : [];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
}

/** The party ids a Daml value names (they are informees of what it creates, most of the time). */
function partiesIn(values: readonly unknown[]): string[] {
  const found = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (depth > 100) return;
    if (typeof v === 'string') {
      if (PARTY_ID.test(v)) found.add(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isJsonObject(v)) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  for (const v of values) walk(v, 0);
  return [...found];
}

function note(notes: string[], line: string): void {
  if (!notes.includes(line)) notes.push(line);
}

// ---------------------------------------------------------------- the report

/** The pre-flight as lines for people: per package name, the version or what is missing where. */
export function preflightReport(file: string, r: PreflightResult): string[] {
  const lines: string[] = [];
  const who = (parties: string[]) => parties.map((p) => p.split('::', 1)[0]).join(', ') || 'no party';
  for (const v of r.packages) {
    switch (v.verdict) {
      case 'ok':
        lines.push(`${file}: ${v.packageName} ${v.chosen.packageVersion} (${v.chosen.packageId}) for ${who(v.parties)}${v.source === 'canton' ? '' : v.source === 'vetting' ? ' [from the hosts\' vetting]' : ' [named by id]'}`);
        break;
      case 'fails':
        lines.push(`${file}: ${v.packageName}: no version for ${who(v.parties)}: the commands using it will fail`);
        for (const m of v.missing) lines.push(`  ${describeMissingVetting(m)}`);
        for (const n of v.notes) lines.push(`  ${n}`);
        if (v.cause) lines.push(`  Canton: ${v.cause}`);
        break;
      case 'unchecked':
        lines.push(`${file}: ${v.packageName}: not checked for ${who(v.parties)}`);
        for (const p of v.problems) lines.push(`  ${describeNetworkProblem(p)}`);
        for (const n of v.notes) lines.push(`  ${n}`);
        break;
    }
  }
  for (const p of r.problems.filter((p) => p.code === 'preflight-unchecked' && !r.packages.some((v) => v.packageName && p.data?.packageName === v.packageName))) lines.push(`${file}:${p.line}:${p.column}: ${p.message}`);
  for (const n of r.notes) lines.push(`${file}: note: ${n}`);
  if (r.packages.length === 0 && !r.problems.some((p) => p.code === 'preflight-unchecked')) lines.push(`${file}: no command names a template: nothing to check`);
  return lines;
}

/** Whether every command of the file will find its package version: the CLI's exit 0. */
export function preflightPasses(r: PreflightResult): boolean {
  return r.packages.every((v) => v.verdict === 'ok') && !r.problems.some((p) => p.severity !== 'info');
}

/** When the editor runs the pre-flight before Submit: never, asking to go on when it fails, or refusing the submit then. */
export type BeforeSubmit = 'off' | 'warn' | 'block';

/** The pre-flight as a Markdown report: the verdict, who was asked, then the report's lines per package name. */
export function preflightMarkdown(file: string, members: readonly string[], r: PreflightResult): string {
  const passes = preflightPasses(r);
  const fails = r.packages.filter((v) => v.verdict === 'fails').length;
  const verdict = passes ? 'Every command will find its package version.' : fails > 0 ? `${fails} package name${fails === 1 ? '' : 's'} without a version every host has vetted: the commands using ${fails === 1 ? 'it' : 'them'} will fail.` : 'Not everything could be checked: see below.';
  const lines = [`# Pre-flight of ${file}`, '', `**${verdict}**`, '', `Participants asked: ${members.join(', ')} (Canton's choice from ${members[0] ?? 'none'}).`, ''];
  lines.push('| | Package | Version | Parties | Decided by |', '| --- | --- | --- | --- | --- |');
  const who = (parties: string[]) => parties.map((p) => p.split('::', 1)[0]).join(', ') || '—';
  for (const v of r.packages) {
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    if (v.verdict === 'ok') lines.push(`| ✓ | ${cell(v.packageName)} | ${cell(v.chosen.packageVersion)} (\`${v.chosen.packageId.slice(0, 12)}…\`) | ${cell(who(v.parties))} | ${v.source === 'canton' ? 'Canton (preferred-packages)' : v.source === 'vetting' ? "every host's vetting" : 'named by id'} |`);
    else lines.push(`| ${v.verdict === 'fails' ? '✗' : '?'} | ${cell(v.packageName)} | ${v.verdict === 'fails' ? 'none' : 'not checked'} | ${cell(who(v.parties))} | |`);
  }
  lines.push('', '```text', ...preflightReport(file, r), '```', '');
  return lines.join('\n');
}
