/**
 * The Canton releases the demo participant can imitate. Everything that differs between them comes
 * from the core's version table: which endpoints exist, which request fields the decoder insists on,
 * the wire dialect and the validation rules.
 */
import { allEndpoints, endpointExists, factsOf, type VersionFacts } from '../core/versions';
import { pathShape } from '../core/compat/openapi';

/** `--api-version` values; `3.4` means the newest 3.4 (3.4.12, with the relaxed spec). */
export const API_VERSIONS = ['3.3', '3.4.11', '3.4', '3.4.12', '3.5', '3.6'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const RELEASES: Record<ApiVersion, string> = {
  '3.3': '3.3.0',
  '3.4.11': '3.4.11',
  '3.4': '3.4.12',
  '3.4.12': '3.4.12',
  '3.5': '3.5.10',
  '3.6': '3.6.0',
};

export interface VersionProfile extends VersionFacts {
  /** What `/v2/version` answers: the release, marked as the demo. */
  release: string;
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
