/**
 * The Canton releases the demo participant can imitate. Everything that differs between them comes
 * from the core's version table: which endpoints exist, which request fields the decoder insists on,
 * the wire dialect and the validation rules.
 */
import { allEndpoints, atLeast, endpointExists, factsOf, type VersionFacts } from '../core/versions';
import { pathShape } from '../core/compat/openapi';

/** `--api-version` values; `3.4` means the newest 3.4 (3.4.12, with the relaxed spec). */
export const API_VERSIONS = ['3.3', '3.4.11', '3.4', '3.4.12', '3.5', '3.6', '3.8'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const RELEASES: Record<ApiVersion, string> = {
  '3.3': '3.3.0',
  '3.4.11': '3.4.11',
  '3.4': '3.4.12',
  '3.4.12': '3.4.12',
  '3.5': '3.5.10',
  '3.6': '3.6.0',
  // The endpoints of the newest line the version table knows (3.6), with what 3.8 adds that the demo
  // imitates: tokens scoped to API areas and the contract-id filter on updates.
  '3.8': '3.8.0',
};

export interface VersionProfile extends VersionFacts {
  /** What `/v2/version` answers: the release, marked as the demo. */
  release: string;
  /** Tokens may be restricted to API areas (3.8). */
  scopedTokens: boolean;
  /** Update requests may filter by contract id (3.8; the demo's name for the field, `UPDATES_CONTRACT_ID_FIELD`). */
  contractIdFilter: boolean;
  /** Whether the release has this endpoint (`:name` or `{name}` path parameters). */
  serves(method: string, path: string): boolean;
  /** Whether the release has this websocket channel. */
  servesChannel(path: string): boolean;
}

/** A path with its parameters blanked, so that `/v2/users/:userId` and `/v2/users/{user-id}` compare equal. */
export { pathShape } from '../core/compat/openapi';

export function profileOf(apiVersion: ApiVersion): VersionProfile {
  const release = `${RELEASES[apiVersion]}-demo`;
  const endpoints = allEndpoints();
  return {
    ...factsOf(release),
    release,
    scopedTokens: atLeast(release, '3.8.0'),
    contractIdFilter: atLeast(release, '3.8.0'),
    serves(method, path) {
      const shape = pathShape(path);
      const matching = endpoints.filter((e) => !e.websocket && e.method === method && pathShape(e.path) === shape);
      // A route the table does not know would escape the comparison with the specs.
      if (matching.length === 0) throw new Error(`demo participant: ${method} ${path} is not in the version table`);
      return matching.some((e) => endpointExists(e, release));
    },
    servesChannel(path) {
      const matching = endpoints.filter((e) => e.websocket && e.path === path);
      if (matching.length === 0) throw new Error(`demo participant: the websocket channel ${path} is not in the version table`);
      return matching.some((e) => endpointExists(e, release));
    },
  };
}
