/**
 * Listing updates from the demo participant, end to end (request, transfer, decode), in one process
 * per client: ours (LedgerClient.listUpdates) and the official @canton-network/core-ledger-client
 * sending the same request body to the same path.
 */
import pino from 'pino';
import { LedgerClient as OfficialClient } from '@canton-network/core-ledger-client';
import { LedgerClient } from '../../../src/core/api/client';
import { buildGetUpdatesRequest } from '../../../src/core/api/updatesRequest';
import { timeRuns, workerMain } from '../lib';
import { BENCH_SELECTION } from '../selection';

export interface ListInput {
  url: string;
  client: 'ours' | 'official';
  beginExclusive: number;
  endInclusive: number;
  reps: number;
  warmup: number;
}

export interface ListOutput {
  ms: number[];
  elements: number;
  peakRssGrowth: number;
}

workerMain<ListInput, ListOutput>(async (input) => {
  const range = { beginExclusive: input.beginExclusive, endInclusive: input.endInclusive };
  let list: () => Promise<number>;
  if (input.client === 'ours') {
    const client = new LedgerClient({ baseUrl: input.url, timeoutMs: 600_000 });
    list = async () => (await client.listUpdates(range, BENCH_SELECTION)).length;
  } else {
    const official = new OfficialClient({
      baseUrl: new URL(input.url),
      logger: pino({ level: 'silent' }),
      accessTokenProvider: { getAccessToken: async () => 'unchecked', getAuthContext: async () => ({}) as never },
      version: '3.5',
    });
    await official.init();
    const body = buildGetUpdatesRequest(range, BENCH_SELECTION);
    list = async () => ((await official.post('/v2/updates/flats', body as never)) as unknown as unknown[]).length;
  }
  const { ms, result: elements, peakRssGrowth } = await timeRuns(list, input);
  return { ms, elements, peakRssGrowth };
});
