/**
 * The sides of a Compare Parties read from several participants, as people name them: `party@where`
 * (where: the participant's URL, its label, or its participant's name such as `app-user`), or a party
 * alone, read on the first participant given that hosts it. A party is its full id or, when unique,
 * its hint (`Alice`). Each side then reads from its participant with {@link compareSides}.
 */
import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { AuthError, RequestValidationError } from '../errors';
import { labelOfParticipant } from '../network/model';
import { resolvePartyNames, type CompareSide } from './compare';

/** A participant a side may be read on. */
export interface SideParticipant {
  /** How it is shown (a side's label). */
  label: string;
  /** The URL it was given as. */
  url: string;
  client: LedgerClient;
}

/**
 * `Alice@app-user` → Alice on app-user; `Alice` → Alice wherever she is hosted. A party id has no `@`
 * (Canton's party ids are letters, digits and `:-_ `), so the first `@` ends the party.
 */
export function parseSide(spec: string): { party: string; at?: string } {
  const i = spec.indexOf('@');
  return i < 0 ? { party: spec.trim() } : { party: spec.slice(0, i).trim(), at: spec.slice(i + 1).trim() };
}

/** The sides for `specs` (each `party` or `party@where`), in their order. Unknown or ambiguous names are refused, naming what there is. */
export async function sidesOnParticipants(specs: readonly string[], participants: readonly SideParticipant[], o: CallOptions = {}): Promise<CompareSide[]> {
  if (participants.length === 0) throw new RequestValidationError('participants', 'Give at least one participant to read from.');
  const memo = <T>(read: (p: SideParticipant) => Promise<T>) => {
    const answers = new Map<SideParticipant, Promise<T>>();
    return (p: SideParticipant) => {
      let answer = answers.get(p);
      if (!answer) answers.set(p, (answer = read(p)));
      return answer;
    };
  };
  // One participant: every party is read on it (as `updates --compare-parties` always did), hints among every party it knows.
  const known = memo(async (p) => (await p.client.parties(o)).filter((x) => participants.length === 1 || x.isLocal !== false).map((x) => x.party));
  // Its participant's id, for `@app-user`; a token that may not ask leaves it to its URL and label.
  const participantId = memo(async (p) => p.client.participantId({ ...o, expectedStatuses: [403] }).catch((e: unknown) => (e instanceof AuthError ? undefined : Promise.reject(e))));

  const called = async (at: string): Promise<SideParticipant> => {
    const byAddress = participants.filter((p) => sameUrl(p.url, at) || p.label === at);
    if (byAddress.length > 0) return byAddress[0];
    const ids = await Promise.all(participants.map(participantId));
    const byName = participants.filter((_, i) => ids[i] !== undefined && (ids[i] === at || labelOfParticipant(ids[i]!) === at));
    if (byName.length === 1) return byName[0];
    const names = participants.map((p, i) => (ids[i] ? `${p.label} (${labelOfParticipant(ids[i]!)})` : p.label));
    throw new RequestValidationError(
      'participants',
      byName.length === 0 ? `No participant given is ${at}: they are ${names.join(', ')}` : `${byName.length} participants given are called ${at}: name one by its URL (${byName.map((p) => p.url).join(', ')})`,
    );
  };

  const sides: CompareSide[] = [];
  for (const spec of specs) {
    const { party, at } = parseSide(spec);
    if (!party) throw new RequestValidationError('parties', `"${spec}" names no party: write party or party@participant`);
    if (at !== undefined || participants.length === 1) {
      const on = at === undefined || at === '' ? participants[0] : await called(at);
      const [id] = party.includes('::') ? [party] : resolvePartyNames([party], await known(on));
      sides.push({ party: id, client: on.client, label: on.label });
      continue;
    }
    // The participant that hosts it: the first given (any of its hosts tells the same transactions).
    const lists = await Promise.all(participants.map(known));
    const ids = [...new Set(lists.flatMap((list) => list.filter((id) => id === party || hintOf(id) === party)))];
    if (ids.length !== 1) {
      throw new RequestValidationError(
        'parties',
        ids.length === 0
          ? `No participant given hosts a party called ${party}: give its full id and where to read it (${party}::…@participant)`
          : `${ids.length} parties hosted on the participants given are called ${party}: give the full id of one of ${ids.join(', ')}`,
      );
    }
    const host = participants[lists.findIndex((list) => list.includes(ids[0]))];
    sides.push({ party: ids[0], client: host.client, label: host.label });
  }
  return sides;
}

function hintOf(party: string): string {
  return party.slice(0, party.indexOf('::'));
}

function sameUrl(a: string, b: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, '');
  return norm(a) === norm(b);
}
