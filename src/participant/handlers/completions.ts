/** The routes of the command completions (see `../completions.ts` for what has one and how a status looks). */
import type * as wire from '../../core/models/wire';
import { canReadAs, canReadAsAnyParty, ensureAllowed, type Caller } from '../auth';
import { completionJson, type CompletionRecord } from '../completions';
import { DecodeFailure, LedgerApiError, offsetAfterLedgerEnd } from '../errors';
import type { DemoLedger } from '../ledger';
import { route, streamJsonArray, type RequestContext, type Route } from '../server';
import type { Services } from './services';
import { negativeOffset } from './updates';

interface CompletionsQuery {
  /** Only this user's commands (the old endpoint); all users' (the newer one). */
  userId?: string;
  /** Commands with one of these among their actAs; undefined: any party. */
  parties?: ReadonlySet<string>;
  beginExclusive: number;
}

function decodeCompletionStreamRequest(body: unknown): wire.CompletionStreamRequest {
  const o = objectOf(body);
  return { userId: optionalString(o, 'userId'), parties: stringList(o, 'parties'), beginExclusive: optionalInt(o, 'beginExclusive') };
}

function decodeGetCompletionsRequest(body: unknown): Required<Pick<wire.GetCompletionsRequest, 'parties'>> & wire.GetCompletionsRequest {
  const o = objectOf(body);
  return { parties: stringList(o, 'parties'), beginExclusive: optionalInt(o, 'beginExclusive') };
}

function objectOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw DecodeFailure.body('DecodingFailure at : expecting object');
  return body as Record<string, unknown>;
}
function optionalString(o: Record<string, unknown>, name: string): string | undefined {
  const v = o[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw DecodeFailure.body(`DecodingFailure at .${name}: expecting string`);
  return v;
}
function optionalInt(o: Record<string, unknown>, name: string): number | undefined {
  const v = o[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw DecodeFailure.body(`DecodingFailure at .${name}: expecting int64`);
  return v;
}
function stringList(o: Record<string, unknown>, name: string): string[] {
  const v = o[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw DecodeFailure.body(`DecodingFailure at .${name}: expecting array of string`);
  return v as string[];
}

function userOf(ctx: { caller: Caller }, named: string | undefined): string | undefined {
  return ctx.caller.kind === 'user' ? ctx.caller.user.id : named;
}

function checkedBegin(ledger: DemoLedger, begin: number | undefined): number {
  const b = begin ?? 0;
  if (b < 0) throw negativeOffset(b, 'begin_exclusive');
  if (b > ledger.ledgerEnd) throw offsetAfterLedgerEnd('Begin', b, ledger.ledgerEnd);
  return b;
}

export function completionRoutes(s: Services): Route[] {
  const answer = async (ctx: RequestContext<unknown>, q: CompletionsQuery): Promise<void> => {
    const limit = Number(ctx.url.searchParams.get('limit') ?? NaN);
    const idle = Number(ctx.url.searchParams.get('stream_idle_timeout_ms') ?? NaN);
    const max = Number.isSafeInteger(limit) && limit > 0 && limit <= s.listCap ? limit : s.listCap + 1;
    const found = await s.ledger.collectCompletions((c: CompletionRecord) => c.offset > q.beginExclusive && (q.userId === undefined || c.userId === q.userId) && (!q.parties || c.actAs.some((p: string) => q.parties!.has(p))), max, Number.isFinite(idle) ? idle : s.listWaitMs, ctx.signal);
    if (found.length > s.listCap) {
      throw new LedgerApiError('JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED', `The number of matching elements (${found.length}) is greater than the node limit (${s.listCap}).`);
    }
    await streamJsonArray(ctx.res, found, (c: CompletionRecord) => JSON.stringify({ completionResponse: { Completion: { value: completionJson(c) } } }), ctx.signal);
  };
  return [
    route({
      method: 'POST',
      path: '/v2/commands/completions',
      body: 'CompletionStreamRequest',
      decode: decodeCompletionStreamRequest,
      handle: async (ctx) => {
        const { body } = ctx;
        const userId = userOf(ctx, body.userId);
        if (!userId) throw new LedgerApiError('MISSING_FIELD', 'The submitted command is missing a mandatory field: user_id');
        if (body.parties.length === 0) throw new LedgerApiError('MISSING_FIELD', 'The submitted command is missing a mandatory field: parties');
        for (const p of body.parties) ensureAllowed(canReadAs(ctx.caller, p));
        await answer(ctx, { userId, parties: new Set(body.parties), beginExclusive: checkedBegin(s.ledger, body.beginExclusive) });
      },
    }),
    route({
      method: 'POST',
      path: '/v2/commands/command-completions',
      body: 'GetCompletionsRequest',
      decode: decodeGetCompletionsRequest,
      handle: async (ctx) => {
        const { body } = ctx;
        // No parties: every party's, for users who may read as any party.
        if (body.parties.length === 0) ensureAllowed(canReadAsAnyParty(ctx.caller));
        for (const p of body.parties) ensureAllowed(canReadAs(ctx.caller, p));
        await answer(ctx, { parties: body.parties.length > 0 ? new Set(body.parties) : undefined, beginExclusive: checkedBegin(s.ledger, body.beginExclusive) });
      },
    }),
  ];
}
