/** Commands that read several participants at once (`preflight`, `updates --compare-parties`): `--url` repeatable, a token each. */
import { basename } from 'node:path';
import type { LedgerClient } from '../core/api/client';
import { checkedParticipantUrl, stringList, type OptionSpecs, type OptionValues } from './args';
import { TOKEN_ENV, type CliContext } from './context';

/** `--url`, repeatable here, unlike the other commands' single participant. */
export const PARTICIPANTS_OPTIONS = { url: { type: 'string', multiple: true } } as const satisfies OptionSpecs;

export const PARTICIPANTS_DETAILS = [
  '--url URL          a participant to read (repeatable; default CANTON_LEDGER_URL). The token for the n-th',
  '                   --url is CANTON_LEDGER_TOKEN_n, else CANTON_LEDGER_TOKEN.',
];

export interface GivenParticipant {
  /** Its URL's host and path, as people tell participants apart on a command line. */
  label: string;
  url: string;
  client: LedgerClient;
}

/** The participants to read: each --url with its token (CANTON_LEDGER_TOKEN_n, else CANTON_LEDGER_TOKEN), else the one URL of the run. */
export function participantsOf(ctx: CliContext, values: OptionValues, command: string): GivenParticipant[] {
  const urls = stringList(values, 'url');
  if (urls.length === 0) return [{ label: labelOf(ctx.globals.url), url: ctx.globals.url, client: ctx.client() }];
  return urls.map((url, i) => {
    checkedParticipantUrl(url, command);
    const token = ctx.env[`${TOKEN_ENV}_${i + 1}`] || ctx.token;
    return { label: labelOf(url), url, client: ctx.clientFor(url, token) };
  });
}

function labelOf(url: string): string {
  const u = new URL(url);
  return basename(u.pathname) ? `${u.host}${u.pathname.replace(/\/$/, '')}` : u.host;
}
