/**
 * Looking up an externally signed transaction by the hash its parties signed (Canton 3.6): the update
 * and its command's completions, asked together. "Not found" is an answer here (the hash is unknown,
 * not visible, pruned, or from before the upgrade), so it is absent rather than an error; any other
 * failure (no such endpoint before 3.6, auth, network) is thrown as it is.
 */
import type { LedgerClient } from '../api/client';
import type { CallOptions } from '../api/http';
import type { UpdateFilter } from '../api/updatesRequest';
import { CantonApiError } from '../errors';
import type { CompletionsByHash } from '../models/completions';
import type { Update } from '../models/updates';

export interface HashLookUp {
  update?: Update;
  completions?: CompletionsByHash;
}

export async function lookUpByHash(client: LedgerClient, transactionHash: string, filter: UpdateFilter, o: CallOptions = {}): Promise<HashLookUp> {
  const unlessNotFound = <T>(p: Promise<T>, code: string): Promise<T | undefined> => p.catch((e) => (e instanceof CantonApiError && e.code === code ? undefined : Promise.reject(e)));
  const [update, completions] = await Promise.all([
    unlessNotFound(client.updateByHash(transactionHash, { filter }, o), 'UPDATE_NOT_FOUND'),
    unlessNotFound(client.completionByHash(transactionHash, o), 'COMPLETION_NOT_FOUND'),
  ]);
  return { ...(update ? { update } : {}), ...(completions ? { completions } : {}) };
}
