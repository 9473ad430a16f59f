/**
 * `POST /v2/interactive-submission/preferred-packages`: Canton's choice of package version per
 * package name for the parties named, over the topology every participant of the synchronizer
 * shares. Any valid token may ask (the service's own authorization is public).
 */
import { decodeGetPreferredPackagesRequest } from '../decode';
import { missingField } from '../errors';
import { checkParty } from '../filters';
import { noPreferredPackages, preferPackages } from '../packagePreference';
import { route, sendJson, type Route } from '../server';
import { parseInstant } from '../time';
import type { Services } from './services';

export function preferredPackagesRoutes(s: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/v2/interactive-submission/preferred-packages',
      body: 'GetPreferredPackagesRequest',
      decode: decodeGetPreferredPackagesRequest,
      handle: ({ res, body }) => {
        // GetPreferredPackagesRequestValidator's order: the list, then each requirement's name and parties.
        if (body.requirements.length === 0) throw missingField('package_vetting_requirements/packageVettingRequirements');
        const requirements = new Map<string, Set<string>>();
        for (const r of body.requirements) {
          if (!r.packageName) throw missingField('package_name/packageName');
          if (r.parties.length === 0) throw missingField('parties');
          r.parties.forEach(checkParty);
          // A name given twice: the last requirement counts, as in Canton's map.
          requirements.set(r.packageName, new Set(r.parties));
        }
        const at = body.vettingValidAt === undefined ? undefined : parseInstant(body.vettingValidAt);
        const answer = preferPackages(s.topology, s.ledger, requirements, { synchronizerId: body.synchronizerId, at });
        if (!answer.ok) throw noPreferredPackages(answer.reason);
        sendJson(res, 200, {
          packageReferences: answer.packages,
          synchronizerId: answer.synchronizerId,
        });
      },
    }),
  ];
}
