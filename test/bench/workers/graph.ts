/**
 * The transaction graph: building the model and its drawing from a transaction's JSON, next to
 * JSON.parse of the same text; and a lineage walk of many hops against the demo participant, counting
 * its requests.
 */
import { LedgerClient } from '../../../src/core/api/client';
import { toMermaid } from '../../../src/core/graph/export';
import { walkLineage } from '../../../src/core/graph/lineage';
import { buildTransactionGraph } from '../../../src/core/graph/model';
import { lineageReaderOf } from '../../../src/core/graph/read';
import { decodeTransaction } from '../../../src/core/models/updates';
import type * as wire from '../../../src/core/models/wire';
import { startDemoParticipant } from '../../../src/participant/index';
import { generatedTransaction } from '../../support/transactions';
import { checkCompatibility } from '../../../src/core/compat/check';
import { specAvailable } from '../../support/spec';
import { derive38Spec } from '../../support/spec38';
import { median, workerMain } from '../lib';

export interface GraphInput {
  sizes: number[];
  reps: number;
  hops: number;
}

export interface GraphOutput {
  builds: Array<{ nodes: number; bytes: number; oursMs: number; jsonParseMs: number }>;
  lineage: {
    hops: number;
    contracts: number;
    requests: number;
    ms: number;
    oneRequestMs: number;
    /** The same walk where the participant filters updates by contract id (3.8); absent without the 3.6 spec to derive its description from. */
    filtered?: { requests: number; ms: number };
  };
}

const IOU = '#demo-iou:Iou:Iou';

async function submit(url: string, actAs: string, command: wire.Command, n: number): Promise<string> {
  const res = await fetch(new URL('/v2/commands/submit-and-wait-for-transaction', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      commands: { commands: [command], commandId: `bench-lineage-${n}`, actAs: [actAs] },
      transactionFormat: { eventFormat: { filtersForAnyParty: {} }, transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA' },
    }),
  });
  const body = (await res.json()) as { transaction: wire.JsTransaction };
  if (!res.ok) throw new Error(`submit ${n}: HTTP ${res.status} ${JSON.stringify(body)}`);
  const created = (body.transaction.events ?? []).find((e): e is { CreatedEvent: wire.CreatedEvent } => 'CreatedEvent' in e);
  if (!created) throw new Error(`submit ${n}: nothing created`);
  return created.CreatedEvent.contractId;
}

workerMain<GraphInput, GraphOutput>(async (input) => {
  const builds: GraphOutput['builds'] = [];
  for (const nodes of input.sizes) {
    const text = JSON.stringify(generatedTransaction(nodes));
    const ours: number[] = [];
    const json: number[] = [];
    for (let i = 0; i < input.reps; i++) {
      let t0 = performance.now();
      const g = buildTransactionGraph(decodeTransaction(JSON.parse(text)));
      toMermaid(g);
      ours.push(performance.now() - t0);
      t0 = performance.now();
      JSON.parse(text);
      json.push(performance.now() - t0);
    }
    const warm = (xs: number[]) => median(xs.slice(Math.min(3, xs.length - 1)));
    builds.push({ nodes, bytes: Buffer.byteLength(text), oursMs: warm(ours), jsonParseMs: warm(json) });
  }

  // Playing 3.8: the walk without the contract-id filter (a client that has not read the description)
  // and with it (one that holds the participant to a 3.8-shaped description), on the same ledger.
  const p = await startDemoParticipant({ port: 0, seed: false, apiVersion: '3.8' });
  try {
    const { bank, alice, bob } = p.parties;
    let iou = await submit(p.url, bank, { CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '10.0', observers: [] } } }, 0);
    for (let hop = 1; hop <= input.hops; hop++) {
      const [from, to] = hop % 2 === 1 ? [alice, bob] : [bob, alice];
      iou = await submit(p.url, from, { ExerciseCommand: { templateId: IOU, contractId: iou, choice: 'Iou_Transfer', choiceArgument: { newOwner: to } } }, hop);
    }
    const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 30_000 });
    const reader = lineageReaderOf(client, { parties: [], anyParty: true });
    const one: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await client.eventsByContractId(iou, { filter: { anyParty: true } });
      one.push(performance.now() - t0);
    }
    const t0 = performance.now();
    const l = await walkLineage(reader, iou, { maxDistance: input.hops + 1, maxContracts: input.hops + 10 });
    const ms = performance.now() - t0;
    if (l.contracts.size !== input.hops + 1 || l.frontier.length > 0) throw new Error(`the walk found ${l.contracts.size} contracts (want ${input.hops + 1}), frontier ${l.frontier.length}`);
    let filtered: GraphOutput['lineage']['filtered'];
    if (specAvailable('main-3.6')) {
      const withFilter = new LedgerClient({ baseUrl: p.url, timeoutMs: 30_000 });
      withFilter.useCompatibility(checkCompatibility(derive38Spec({ scopes: false }).document, '3.8.0'));
      const t1 = performance.now();
      const f = await walkLineage(lineageReaderOf(withFilter, { parties: [], anyParty: true }), iou, { maxDistance: input.hops + 1, maxContracts: input.hops + 10 });
      const fms = performance.now() - t1;
      if (f.contracts.size !== l.contracts.size) throw new Error(`the filtered walk found ${f.contracts.size} contracts (want ${l.contracts.size})`);
      filtered = { requests: f.requests, ms: fms };
    }
    return { builds, lineage: { hops: input.hops, contracts: l.contracts.size, requests: l.requests, ms, oneRequestMs: median(one), ...(filtered ? { filtered } : {}) } };
  } finally {
    await p.close();
  }
});
