/** Which parties to read as when the command line names none: everything the user may read. */
import { RequestValidationError } from '../core/errors';
import { readableParties } from '../core/models/users';
import { resolvePartyNames } from '../core/updates/compare';
import { flag, stringList, type OptionSpecs, type OptionValues } from './args';
import type { CliContext } from './context';

export const PARTY_OPTIONS = {
  party: { type: 'string', multiple: true },
  'any-party': { type: 'boolean' },
} as const satisfies OptionSpecs;

export const PARTY_DETAILS = [
  '--party P          read as party P (repeatable); default: every party the user can read',
  '--any-party        read as any party (needs CanReadAsAnyParty or participant admin)',
];

export interface ReadAs {
  parties: string[];
  anyParty: boolean;
}

export async function resolveReadAs(ctx: CliContext, values: OptionValues): Promise<ReadAs> {
  const parties = stringList(values, 'party');
  const anyParty = flag(values, 'any-party');
  if (parties.length > 0 || anyParty) return { parties, anyParty };

  // Without a token there is no authenticated user to ask about (a participant without auth answers
  // 400, and 3.3 has no way to ask) but anyone may read everything; if the participant does need auth,
  // the read itself fails with the auth error and its hint.
  if (ctx.token === undefined) {
    ctx.logger.info('No token: reading as any party');
    return { parties: [], anyParty: true };
  }
  const client = ctx.client();
  const userId = (await client.authenticatedUser(ctx.callOptions)).id;
  const rights = await client.userRights(userId, ctx.callOptions);
  const readable = readableParties(rights);
  // Admins with no parties of their own see the whole participant, as the ledger lets them.
  if (rights.readAsAnyParty || (rights.participantAdmin && readable.length === 0)) {
    ctx.logger.info(`User ${userId} reads as any party`);
    return { parties: [], anyParty: true };
  }
  if (readable.length === 0) {
    throw new RequestValidationError('parties', `User ${userId} may not read as any party: name one with --party, or grant the user CanReadAs.`);
  }
  ctx.logger.info(`User ${userId} reads as ${readable.length} ${readable.length === 1 ? 'party' : 'parties'}`);
  return { parties: readable, anyParty: false };
}

/** Party ids for what was typed: full ids as they are, bare hints (Alice) looked up among the participant's parties. */
export async function resolvePartyArgs(ctx: CliContext, names: readonly string[]): Promise<string[]> {
  const known = names.some((n) => !n.includes('::')) ? (await ctx.client().parties(ctx.callOptions)).map((p) => p.party) : [];
  return resolvePartyNames(names, known);
}
