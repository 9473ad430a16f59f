/**
 * Decode throughput on bytes the demo participant served (captured once, replayed from memory in
 * 64 KiB chunks as a socket delivers them), so that only decoding is measured:
 * - "ours": the client's own list path (LedgerClient.listUpdates, fed by an in-memory fetch), which
 *   decodes while the body streams in and builds the typed updates;
 * - "json": JSON.parse of the whole body (what a non-streaming client does before anything else).
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Response } from 'node-fetch';
import { LedgerClient } from '../../../src/core/api/client';
import { timeRuns, workerMain } from '../lib';
import { BENCH_SELECTION } from '../selection';

export interface DecodeInput {
  file: string;
  decoder: 'ours' | 'json';
  reps: number;
  warmup: number;
  beginExclusive: number;
  endInclusive: number;
}

export interface DecodeOutput {
  ms: number[];
  bytes: number;
  elements: number;
  peakRssGrowth: number;
}

const CHUNK = 64 * 1024;

workerMain<DecodeInput, DecodeOutput>(async (input) => {
  const body = readFileSync(input.file);
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += CHUNK) chunks.push(body.subarray(i, i + CHUNK));

  const replay = async (url: string) =>
    new Response(url.includes('/v2/version') ? JSON.stringify({ version: '3.5.1' }) : Readable.from(chunks, { objectMode: false }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  const client = new LedgerClient({ baseUrl: 'http://bench.invalid', fetch: replay as never, timeoutMs: 600_000 });
  await client.capabilities();

  const once = async (): Promise<number> => {
    if (input.decoder === 'json') return (JSON.parse(body.toString('utf8')) as unknown[]).length;
    return (await client.listUpdates({ beginExclusive: input.beginExclusive, endInclusive: input.endInclusive }, BENCH_SELECTION)).length;
  };
  const { ms, result: elements, peakRssGrowth } = await timeRuns(once, input);
  return { ms, bytes: body.length, elements, peakRssGrowth };
});
