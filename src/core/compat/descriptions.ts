/**
 * Participants' own API descriptions (`GET /docs/openapi`), read at connect once per participant and
 * version, and checked once per description: a participant of the same version that serves the same
 * text uses the check made for the first (the parse is what costs), while one that serves another, or
 * none, is judged by its own — two participants of one version need not describe the same API (a
 * participant configured otherwise, a patched build, a test's changed spec). A participant that does not serve its description (or refuses it, or sends something
 * else) is checked against the version table only, and its report says so; that outcome is not kept,
 * so the next connect asks again.
 */
import { createHash } from 'node:crypto';
import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import { AuthError, CancelledError, CantonApiError, HttpError, LedgerError, NetworkError, TimeoutError } from '../errors';
import { checkCompatibility, tableOnlyReport, type CompatibilityCheck } from './check';
import { isOpenApiDocument } from './openapi';
import type { TableOnlyReason } from './report';

/**
 * A description as served: JSON, else YAML (Canton serves YAML; the parser is loaded only for it),
 * parsed in slices so that the extension host keeps answering meanwhile.
 */
export async function parseDescription(text: string, signal?: AbortSignal): Promise<unknown> {
  if (/^\s*\{/.test(text)) return JSON.parse(text);
  // A bundle of its own (scripts/build.mjs), loaded on the first YAML description.
  const yaml = require('./yamlParser') as typeof import('./yamlParser');
  return yaml.parseYamlInSlices(text, signal);
}

/** The check of a participant whose description was not read: no rules, the version table decides. */
export function tableOnlyCheck(version: string, reason: TableOnlyReason, detail?: string): CompatibilityCheck {
  return { report: tableOnlyReport(version, reason, detail), rules: new Map() };
}

export class ParticipantDescriptions {
  /** By participant (its URL) and version: what was read from it. */
  private readonly byParticipant = new Map<string, CompatibilityCheck>();
  /** By version and the description's text (a digest): what was checked. */
  private readonly byDescription = new Map<string, CompatibilityCheck>();

  constructor(private readonly parse: (text: string, signal?: AbortSignal) => unknown = parseDescription) {}

  /**
   * The compatibility of the client's participant, which reported `version`: from the check kept for
   * the version, else from its description, read with the caller's signal and deadline. Fails only
   * when cancelled; any other failure is a report that says the version table decided.
   */
  async check(client: LedgerClient, version: string, o: CallOptions = {}): Promise<CompatibilityCheck> {
    const participant = `${client.baseUrl} ${version}`;
    const kept = this.byParticipant.get(participant);
    if (kept) return kept;
    let text: string;
    try {
      text = await client.participantDescription(o);
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      const { reason, detail } = whyNotRead(e);
      return tableOnlyCheck(version, reason, detail);
    }
    const description = `${version}\n${createHash('sha256').update(text).digest('hex')}`;
    const checked = this.byDescription.get(description);
    if (checked) {
      this.byParticipant.set(participant, checked);
      return checked;
    }
    let document: unknown;
    try {
      document = await this.parse(text, o.signal);
    } catch (e) {
      if (o.signal?.aborted) throw new CancelledError();
      return tableOnlyCheck(version, 'unreadable', `not JSON or YAML: ${(e as Error).message?.split('\n')[0] ?? String(e)}`);
    }
    if (!isOpenApiDocument(document)) return tableOnlyCheck(version, 'unreadable', 'not an OpenAPI document');
    let check: CompatibilityCheck;
    try {
      check = checkCompatibility(document, version);
    } catch (e) {
      // A document shaped unlike any Canton writes: the version table decides, as without one.
      return tableOnlyCheck(version, 'unreadable', `not a description this extension can read: ${(e as Error).message ?? String(e)}`);
    }
    this.byDescription.set(description, check);
    this.byParticipant.set(participant, check);
    return check;
  }

  /** Whether a check of a description of this version is kept. */
  has(version: string): boolean {
    return [...this.byDescription.keys()].some((k) => k.startsWith(`${version}\n`));
  }

  /** Forgets every kept check (a participant upgraded in place under the same version string; tests). */
  clear(): void {
    this.byParticipant.clear();
    this.byDescription.clear();
  }
}

function whyNotRead(e: unknown): { reason: TableOnlyReason; detail: string } {
  if ((e instanceof HttpError && (e.status === 404 || e.status === 405)) || (e instanceof CantonApiError && e.status === 404)) return { reason: 'not-served', detail: `HTTP ${e.status}` };
  if (e instanceof AuthError || e instanceof HttpError || e instanceof CantonApiError) return { reason: 'refused', detail: `HTTP ${e.status}` };
  if (e instanceof NetworkError || e instanceof TimeoutError) return { reason: 'unreachable', detail: e.message };
  return { reason: 'unreadable', detail: e instanceof LedgerError ? e.message : String(e) };
}

/** The descriptions of this process: one read per participant and version, one check per description, for every connection. */
export const participantDescriptions = new ParticipantDescriptions();
