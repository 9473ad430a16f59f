/**
 * Submit-and-wait overhead: our client against a raw fetch (Node's own) of the same request body to
 * the same participant, alternating one of each so that drift on a busy machine hits both alike.
 */
import { randomUUID } from 'node:crypto';
import { LedgerClient } from '../../../src/core/api/client';
import type * as wire from '../../../src/core/models/wire';
import { workerMain } from '../lib';

export interface SubmitInput {
  url: string;
  issuer: string;
  owner: string;
  count: number;
  warmup: number;
}

export interface SubmitOutput {
  oursMs: number[];
  rawMs: number[];
}

workerMain<SubmitInput, SubmitOutput>(async (input) => {
  const client = new LedgerClient({ baseUrl: input.url, timeoutMs: 60_000 });
  const path = '/v2/commands/submit-and-wait-for-transaction';
  const request = (): wire.JsSubmitAndWaitForTransactionRequest => ({
    commands: {
      commands: [
        { CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: input.issuer, owner: input.owner, currency: 'CHF', amount: '10.0', observers: [] } } },
      ],
      commandId: randomUUID(),
      userId: 'demo-admin',
      actAs: [input.issuer],
    },
  });
  const ours = async () => {
    await client.submitAndWaitForTransaction(request());
  };
  const raw = async () => {
    const res = await fetch(new URL(path, input.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request()),
    });
    const json = (await res.json()) as { transaction?: unknown };
    if (!res.ok || !json.transaction) throw new Error(`raw submit failed: ${res.status} ${JSON.stringify(json)}`);
  };
  const time = async (f: () => Promise<void>) => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  for (let i = 0; i < input.warmup; i++) {
    await ours();
    await raw();
  }
  const oursMs: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < input.count; i++) {
    if (i % 2 === 0) {
      oursMs.push(await time(ours));
      rawMs.push(await time(raw));
    } else {
      rawMs.push(await time(raw));
      oursMs.push(await time(ours));
    }
  }
  return { oursMs, rawMs };
});
