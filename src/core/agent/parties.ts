/** Which parties a tool reads as, decided as the CLI decides it, from the connection's user and rights. */
import { RequestValidationError } from '../errors';
import { readableParties } from '../models/users';
import { resolvePartyNames } from '../updates/compare';
import { connectedInfo, type AgentContext } from './tool';

export interface AgentReadAs {
  parties: string[];
  anyParty: boolean;
}

/** The `parties` input every reading tool takes. */
export const PARTIES_PROPERTY = {
  type: 'array',
  items: { type: 'string', minLength: 1 },
  maxItems: 20,
  description: 'Read as these parties: full ids (Alice::1220…) or, when unique on the participant, their hints (Alice). Default: every party the user may read.',
} as const;

/**
 * Named parties as given (hints looked up among the participant's), else what the user may read: any
 * party for an admin or a reader of any party, or where there is no user (a participant without auth).
 */
export async function readAsOf(ctx: AgentContext, named: readonly string[] | undefined): Promise<AgentReadAs> {
  const info = await connectedInfo(ctx);
  if (named && named.length > 0) return { parties: await partyIds(ctx, named), anyParty: false };
  const rights = info.rights;
  if (!info.user || !rights) return { parties: [], anyParty: true };
  const readable = readableParties(rights);
  if (rights.readAsAnyParty || (rights.participantAdmin && readable.length === 0)) return { parties: [], anyParty: true };
  if (readable.length === 0) throw new RequestValidationError('parties', `User ${info.user.id} may not read as any party: name one in "parties", or grant the user CanReadAs.`);
  return { parties: readable, anyParty: false };
}

/** Full party ids for names an agent wrote: hints resolved among the parties the connection knows. */
export async function partyIds(ctx: AgentContext, named: readonly string[]): Promise<string[]> {
  const info = await connectedInfo(ctx);
  const known = named.some((n) => !n.includes('::')) ? (await ctx.connection.client.parties({ signal: ctx.signal }).catch(() => info.parties)).map((p) => p.party) : [];
  return resolvePartyNames(named, known);
}
