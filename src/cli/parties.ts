/** Which parties to read as when the command line names none: everything the user may read. */
import { AuthError, CantonApiError, HttpError, RequestValidationError, UnsupportedOperationError } from '../core/errors';
import { readableParties } from '../core/models/users';
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

  const client = ctx.client();
  let userId: string;
  try {
    userId = (await client.authenticatedUser(ctx.callOptions)).id;
  } catch (e) {
    // Without a token, a sandbox without auth has no "authenticated user" (and 3.3 no way to ask) but
    // lets anyone read everything; if it does need auth, the read itself fails with the auth error and its hint.
    if (ctx.token === undefined && (e instanceof CantonApiError || e instanceof AuthError || e instanceof HttpError || e instanceof UnsupportedOperationError)) {
      ctx.logger.info('No authenticated user (no token): reading as any party');
      return { parties: [], anyParty: true };
    }
    throw e;
  }
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
