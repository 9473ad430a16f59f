/**
 * The spec-checking layer of the integration tests: every request a demo participant gets and every
 * answer it gives is checked against the official spec of the release it imitates. Start
 * participants with {@link startCheckedParticipant}; the root hook in `specCheckHooks.ts` fails the
 * test during which a violation happened.
 *
 * - A response must be one the spec documents for the operation (status and body), `null`s removed
 *   first: the real server writes null for absent optional fields, which the spec cannot say. That
 *   is the one relaxation.
 * - A request body the spec rejects must be refused with a 4xx, as Canton's decoder would.
 * - A path the spec does not have must get the plain 404 of a real participant.
 * - A websocket (status 101) must be a channel of the release's asyncapi spec; its first frame is
 *   checked as a request body, and every frame the participant sent against the channel's message.
 */
import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { allEndpoints, atLeast, firstMissingField, REQUEST_SHAPES, type RequestSchemaName } from '../../src/core/versions';
import { startDemoParticipant, type ApiVersion, type DemoParticipant, type DemoParticipantOptions, type Exchange } from '../../src/participant/index';
import { pathShape } from '../../src/participant/versions';
import { PARTICIPANT_DESCRIPTION_PATH } from '../../src/core/compat/openapi';
import { asyncSpecValidator, channelSchemaName, loadAsyncSpec, loadSpec, specAvailable, specValidator, type SpecVersion } from './spec';

/** The spec of the release each `apiVersion` imitates. */
export const SPEC_OF_API_VERSION: Record<ApiVersion, SpecVersion> = {
  '3.3': '3.3',
  '3.4.11': '3.4.11',
  '3.4': '3.4.12',
  '3.4.12': '3.4.12',
  '3.5': '3.5',
  '3.6': 'main-3.6',
  // No 3.8 spec is published: its endpoints are 3.6's (the fields it adds are checked where derived).
  '3.8': 'main-3.6',
};

/** What the spec version's own `info.version` says, for the endpoints served before they were documented. */
const SPEC_RELEASE: Record<SpecVersion, string> = { '3.3': '3.3.0', '3.4.11': '3.4.11', '3.4.12': '3.4.12', '3.5': '3.5.10', 'main-3.6': '3.6.0' };

interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Schema {
  $ref?: string;
  type?: string;
  items?: Schema;
}

/** The spec operation for a concrete path (path templates like `/v2/users/{user-id}` match). */
export function findOperation(version: SpecVersion, method: string, path: string): Operation | undefined {
  const paths = loadSpec(version).paths as Record<string, Record<string, Operation>>;
  for (const [template, ops] of Object.entries(paths)) {
    const re = new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$');
    if (re.test(path) && ops[method.toLowerCase()]) return ops[method.toLowerCase()];
  }
  return undefined;
}

function componentName(ref: string | undefined): string {
  const name = /^#\/components\/schemas\/(.+)$/.exec(ref ?? '')?.[1];
  if (!name) throw new Error(`unsupported schema reference ${ref}`);
  return name;
}

/** Validates a value against an operation schema: a component reference, or an array of them. */
function check(version: SpecVersion, schema: Schema, value: unknown, skip: (e: ErrorObject) => boolean = () => false): string[] {
  if (schema.type === 'array') {
    if (!Array.isArray(value)) return ['expected an array'];
    return value.flatMap((item, i) => check(version, schema.items!, item, skip).map((e) => `[${i}] ${e}`));
  }
  if (schema.type === 'string') return typeof value === 'string' ? [] : ['expected a string'];
  const { ok, errors } = specValidator(version, componentName(schema.$ref))(value);
  return ok ? [] : errors.filter((e) => !skip(e)).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** A request header by which a test marks a request it sends off-spec on purpose, with the reason. */
export const OFF_SPEC_HEADER = 'x-test-off-spec';

export interface RecordedExchange {
  /** Set when the test sent the request off-spec on purpose (the reason): its request is not checked. */
  offSpec?: string;
  method: string;
  path: string;
  requestBody?: unknown;
  status: number;
  contentType: string;
  responseText: string;
  /** A websocket's frames, each way. */
  frames?: { received: string[]; sent: string[] };
}

/**
 * The request body's violations of the spec, or undefined when the spec has no such operation. With
 * `enforced`, a missing field is a violation only where the release's server insists on it (the
 * version table lists where the spec requires more).
 */
export function requestErrors(version: SpecVersion, x: RecordedExchange, o: { enforced?: boolean } = {}): string[] | undefined {
  const op = findOperation(version, x.method, x.path);
  if (!op) return undefined;
  // Binary bodies (DAR uploads) have no schema to check.
  if (op.requestBody?.content?.['application/octet-stream']) return [];
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return x.requestBody === undefined ? [] : ['the spec has no JSON request body here'];
  if (x.requestBody === undefined) return ['no JSON request body'];
  const root = schema.$ref && componentName(schema.$ref);
  const accepted = o.enforced && root && root in REQUEST_SHAPES && firstMissingField(root as RequestSchemaName, x.requestBody, SPEC_RELEASE[version]) === undefined;
  return check(version, schema, x.requestBody, (e) => Boolean(accepted) && e.keyword === 'required');
}

export function responseErrors(version: SpecVersion, x: RecordedExchange): string[] {
  const op = findOperation(version, x.method, x.path);
  if (!op) return [`${x.method} ${x.path} is not in the ${version} spec`];
  // The spec documents 400 as the text/plain decode failure only; Canton's JSON errors with 400
  // (OFFSET_AFTER_LEDGER_END, …) are JsCantonError bodies, which the spec lists under `default`.
  const kind = /text\/plain/.test(x.contentType) ? 'text/plain' : /application\/octet-stream/.test(x.contentType) ? 'application/octet-stream' : 'application/json';
  const response = [op.responses?.[String(x.status)], op.responses?.default].find((r) => r?.content?.[kind] || (r && !r.content && x.responseText === ''));
  if (!response) return [`status ${x.status} with ${kind} is not in the spec`];
  if (x.responseText === '' && !response.content) return [];
  if (kind !== 'application/json') return [];
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [`no JSON response schema for ${x.status}`];
  return check(version, schema, JSON.parse(x.responseText));
}

/** Served by every release, documented only from some: absent from older specs, and that is right. */
function undocumentedButServed(version: SpecVersion, x: RecordedExchange): boolean {
  return allEndpoints().some((e) => !e.websocket && e.documentedSince && !atLeast(SPEC_RELEASE[version], e.documentedSince) && e.method === x.method && pathShape(e.path) === pathShape(x.path));
}

/**
 * Everything wrong with a websocket: the channel must be in the asyncapi spec; the first frame must
 * be a request the spec accepts unless the participant refused it; each frame sent must be one of
 * the channel's messages. Those are `Either_JsCantonError_X` (a oneOf), and since the relaxed specs
 * make every field of `X` optional an error frame matches both members: a frame with a code and a
 * cause is checked as the JsCantonError, any other as `X`.
 */
export function channelViolations(version: SpecVersion, x: RecordedExchange): string[] {
  const channel = loadAsyncSpec(version).channels[x.path];
  if (!channel) return [`websocket ${x.path} is not in the ${version} asyncapi spec`];
  const sent = x.frames?.sent ?? [];
  const problems: string[] = [];
  const parsed = sent.map((f) => JSON.parse(f) as Record<string, unknown>);
  const isError = (f: Record<string, unknown>) => typeof f?.code === 'string' && typeof f?.cause === 'string';
  const requestSchema = channelSchemaName(version, x.path, 'publish');
  if (!requestSchema) problems.push(`no request message for ${x.path}`);
  else if (x.requestBody !== undefined && !(parsed[0] && isError(parsed[0]))) {
    const accepted = requestSchema in REQUEST_SHAPES && firstMissingField(requestSchema as RequestSchemaName, x.requestBody, SPEC_RELEASE[version]) === undefined;
    const { errors } = asyncSpecValidator(version, requestSchema, { stripNulls: false })(x.requestBody);
    problems.push(...errors.filter((e) => !(accepted && e.keyword === 'required')).map((e) => `accepted a first frame the spec rejects: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
  }
  const either = channelSchemaName(version, x.path, 'subscribe');
  const members = ((loadAsyncSpec(version).components.schemas[either ?? ''] as { oneOf?: { $ref?: string }[] } | undefined)?.oneOf ?? []).map((m) => m.$ref?.split('/').pop() ?? '');
  const element = members.find((m) => m !== 'JsCantonError');
  if (!element || !members.includes('JsCantonError')) return [...problems, `the ${x.path} channel's message is not Either_JsCantonError_X`];
  const checkError = asyncSpecValidator(version, 'JsCantonError');
  const checkElement = asyncSpecValidator(version, element);
  parsed.forEach((frame, i) => {
    const { errors } = (isError(frame) ? checkError : checkElement)(frame);
    problems.push(...errors.map((e) => `frame ${i}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
  });
  return problems;
}

/** Everything wrong with one exchange, for a participant imitating the release of `version`. */
export function exchangeViolations(version: SpecVersion, x: RecordedExchange): string[] {
  // The participant's API description is the spec itself, not an operation of it.
  if (x.method === 'GET' && x.path === PARTICIPANT_DESCRIPTION_PATH) return [];
  if (x.status === 101) return channelViolations(version, x);
  if (undocumentedButServed(version, x)) return [];
  if (!findOperation(version, x.method, x.path)) {
    // Not in this release: a real participant answers with its plain 404 (405 for a known path and another method).
    return (x.status === 404 || x.status === 405) && /text\/plain/.test(x.contentType) ? [] : [`${x.method} ${x.path} is not in the ${version} spec, yet answered ${x.status}`];
  }
  const problems = responseErrors(version, x).map((e) => `response ${x.status}: ${e}`);
  // Only an accepted request needs its body checked (a refused one may be anything, even too deep to walk).
  const invalid = x.status < 400 && !x.offSpec ? (requestErrors(version, x, { enforced: true }) ?? []) : [];
  if (invalid.length > 0) problems.push(...invalid.map((e) => `accepted a request the spec rejects: ${e}`));
  return problems;
}

export function toRecorded(x: Exchange): RecordedExchange {
  let requestBody: unknown;
  try {
    requestBody = x.requestBody === '' ? undefined : JSON.parse(x.requestBody);
  } catch {
    requestBody = x.requestBody; // not JSON: the spec check reports it, unless the participant refused it
  }
  const offSpec = x.requestHeaders[OFF_SPEC_HEADER];
  return { offSpec: typeof offSpec === 'string' ? offSpec : undefined, method: x.method, path: x.path, requestBody, status: x.status, contentType: x.contentType, responseText: x.responseBody, frames: x.frames };
}

// ---------------------------------------------------------------- the checked participants

interface Watched {
  version: SpecVersion;
  /** Not checked yet. */
  exchanges: RecordedExchange[];
}

const watched: Watched[] = [];

/** A demo participant whose every exchange is checked against the spec of the release it imitates. */
export async function startCheckedParticipant(options: DemoParticipantOptions = {}): Promise<DemoParticipant> {
  const check = checkExchanges(options.apiVersion);
  return startDemoParticipant({ ...options, onExchange: (x) => (check(x), options.onExchange?.(x)) });
}

/**
 * Records exchanges for the spec check of a participant imitating `apiVersion` (default 3.5): give it
 * as the `onExchange` of a participant started otherwise (a demo network's).
 */
export function checkExchanges(apiVersion: ApiVersion = '3.5'): (x: Exchange) => void {
  const version = SPEC_OF_API_VERSION[apiVersion];
  const entry: Watched = { version, exchanges: [] };
  if (specAvailable(version)) watched.push(entry);
  return (x) => void entry.exchanges.push(toRecorded(x));
}

/** The violations since the last call, of every checked participant; with how many exchanges were checked. */
export function takeViolations(): { checked: number; violations: string[] } {
  let checked = 0;
  const violations: string[] = [];
  for (const w of watched) {
    for (const x of w.exchanges.splice(0)) {
      checked++;
      for (const v of exchangeViolations(w.version, x)) violations.push(`${x.method} ${x.path} (${w.version}): ${v}\n    request: ${JSON.stringify(x.requestBody)?.slice(0, 300)}`);
    }
  }
  return { checked, violations };
}

/** Fails with every violation since the last check. */
export function assertNoSpecViolations(): void {
  const { violations } = takeViolations();
  assert.deepEqual(violations, [], 'exchanges with the demo participant that the official spec does not allow');
}
