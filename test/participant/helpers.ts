/** Shared helpers for the demo participant tests: start one, call it over real loopback HTTP, build formats. */
import assert from 'node:assert/strict';
import type * as wire from '../../src/core/models/wire';
import type { DemoParticipant, DemoParticipantOptions } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { specValidator, type SpecVersion } from '../support/spec';

export const FIXED_SEED = 42;

/** A demo participant whose exchanges are checked against the spec of the release it imitates. */
export function start(options: DemoParticipantOptions = {}): Promise<DemoParticipant> {
  return startCheckedParticipant({ seed: FIXED_SEED, ...options });
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON. */
  json: T;
}

export interface CallOptions {
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number>;
}

async function call<T>(p: { url: string }, method: string, path: string, body: unknown, options: CallOptions): Promise<Reply<T>> {
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}` : '';
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const binary = body instanceof Uint8Array;
  if (body !== undefined) headers['content-type'] = binary ? 'application/octet-stream' : 'application/json';
  const res = await fetch(`${p.url}${path}${query}`, {
    method,
    headers,
    body: body === undefined ? undefined : binary ? Buffer.from(body as Uint8Array) : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

export function get<T = any>(p: { url: string }, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  return call<T>(p, 'GET', path, undefined, options);
}

export function post<T = any>(p: { url: string }, path: string, body: unknown, options: CallOptions = {}): Promise<Reply<T>> {
  return call<T>(p, 'POST', path, body, options);
}

/** POSTs binary bytes (a DAR) as application/octet-stream. */
export function postBytes<T = any>(p: { url: string }, path: string, bytes: Uint8Array, options: CallOptions = {}): Promise<Reply<T>> {
  return call<T>(p, 'POST', path, bytes, options);
}

/** GETs a binary body (a package's ArchivePayload). */
export async function getBytes(p: { url: string }, path: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(`${p.url}${path}`);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Asserts a JsCantonError with this status, code and category (and grpc code matching the category). */
export function assertCantonError(reply: Reply, status: number, code: string, category: number): wire.JsCantonError {
  assert.equal(reply.status, status, `status (body: ${reply.text.slice(0, 400)})`);
  assert.equal(reply.json?.code, code, reply.text.slice(0, 400));
  assert.equal(reply.json.errorCategory, category);
  assert.equal(reply.json.context.category, String(category));
  assert.equal(typeof reply.json.traceId, 'string');
  assert.equal(reply.json.context.tid, reply.json.traceId);
  assert.equal(reply.json.definiteAnswer, null);
  return reply.json;
}

/** Asserts a 400 text/plain decode failure. */
export function assertDecodeFailure(reply: Reply, startsWith = 'Invalid value for: body'): void {
  assert.equal(reply.status, 400, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^text\/plain/);
  assert.ok(reply.text.startsWith(startsWith), reply.text);
}

/** Asserts that `value` is valid for `#/components/schemas/<schema>` (nulls stripped, as Canton writes them). */
export function assertSpecValid(value: unknown, schema: string, version: SpecVersion = '3.5'): void {
  const result = specValidator(version, schema)(value);
  assert.ok(result.ok, `${schema} (${version}): ${JSON.stringify(result.errors.slice(0, 3))}\n${JSON.stringify(value).slice(0, 600)}`);
}

// ---------------------------------------------------------------- formats

// The fields that 3.3 and 3.4.0–3.4.11 require (includeCreatedEventBlob, filtersByParty, verbose) are
// always written, so that these formats suit every version.
export const wildcard = (): wire.Filters => ({ cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] });
export const templates = (...templateIds: string[]): wire.Filters => ({
  cumulative: templateIds.map((templateId) => ({ identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: false } } } })),
});

export function eventFormat(parties: string[] | 'any', filters: wire.Filters = wildcard()): wire.EventFormat {
  return parties === 'any' ? { filtersByParty: {}, filtersForAnyParty: filters, verbose: false } : { filtersByParty: Object.fromEntries(parties.map((p) => [p, filters])), verbose: false };
}

export function transactionsFormat(
  parties: string[] | 'any',
  shape: 'ACS_DELTA' | 'LEDGER_EFFECTS' = 'ACS_DELTA',
  filters?: wire.Filters,
): wire.UpdateFormat {
  return { includeTransactions: { eventFormat: eventFormat(parties, filters), transactionShape: `TRANSACTION_SHAPE_${shape}` } };
}

export const IOU = '#demo-iou:Iou:Iou';
export const ASSET = '#demo-asset:Asset:Asset';

export type Update = wire.Update;

/** The kind of each update (`Transaction`, `OffsetCheckpoint`, …). */
export function kinds(updates: wire.JsGetUpdatesResponse[]): string[] {
  return updates.map((u) => Object.keys(u.update!)[0]);
}

export function offsetOf(u: wire.JsGetUpdatesResponse): number {
  const update = u.update as Record<string, { value: { offset: number } }>;
  return Object.values(update)[0].value.offset;
}

export function transactions(updates: wire.JsGetUpdatesResponse[]): wire.JsTransaction[] {
  return updates.flatMap((u) => (u.update && 'Transaction' in u.update ? [u.update.Transaction.value] : []));
}

export function createIou(issuer: string, owner: string, amount = '10', currency = 'USD', observers: string[] = []): wire.Command {
  return { CreateCommand: { templateId: IOU, createArguments: { issuer, owner, currency, amount, observers } } };
}

let commandCounter = 0;
export function commands(actAs: string[], cmds: wire.Command[], extra: Partial<wire.JsCommands> = {}): wire.JsCommands {
  return { commands: cmds, commandId: `test-${process.pid}-${++commandCounter}`, actAs, ...extra };
}

/** Submits and returns the transaction (asserting success). */
export async function submit(p: { url: string }, actAs: string[], cmds: wire.Command[], options: CallOptions & { extra?: Partial<wire.JsCommands>; format?: wire.TransactionFormat } = {}): Promise<wire.JsTransaction> {
  const reply = await post(p, '/v2/commands/submit-and-wait-for-transaction', { commands: commands(actAs, cmds, options.extra), transactionFormat: options.format }, options);
  assert.equal(reply.status, 200, reply.text);
  return reply.json.transaction;
}

export function createdEvents(tx: wire.JsTransaction): wire.CreatedEvent[] {
  return (tx.events ?? []).flatMap((e) => ('CreatedEvent' in e ? [e.CreatedEvent] : []));
}
