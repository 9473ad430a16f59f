/**
 * The catalogue check of every test run: each request a LedgerClient sends must be one that the
 * catalogue (`src/core/compat/catalogue.ts`) declares for its operation — its query parameters, body
 * fields and enum values — so that the catalogue the compatibility report is made of is the client's
 * own. It wraps the one method every request passes before it is sent; the root hook in
 * `specCheckHooks.ts` fails the test during which an undeclared request was sent.
 */
import assert from 'node:assert/strict';
import { LedgerClient } from '../../src/core/api/client';
import { undeclaredParts, type CataloguedOperation } from '../../src/core/compat/catalogue';
import type { OutgoingRequest } from '../../src/core/compat/guard';

interface SeenRequests {
  sent: number;
  undeclared: string[];
}

let seen: SeenRequests = { sent: 0, undeclared: [] };

type BeforeSend = (this: LedgerClient, operation: CataloguedOperation, request: OutgoingRequest) => void;
const prototype = LedgerClient.prototype as unknown as { beforeSend: BeforeSend };
const beforeSend = prototype.beforeSend;
prototype.beforeSend = function (operation, request) {
  seen.sent++;
  for (const part of undeclaredParts(operation, request)) seen.undeclared.push(`${operation} (${request.method} ${request.path}): ${part}`);
  return beforeSend.call(this, operation, request);
};

/** The requests sent since the last call, and those the catalogue does not declare. */
export function takeSentRequests(): SeenRequests {
  const taken = seen;
  seen = { sent: 0, undeclared: [] };
  return taken;
}

/** Fails with every request sent since the last check that the catalogue does not declare. */
export function assertRequestsCatalogued(): void {
  assert.deepEqual(takeSentRequests().undeclared, [], 'requests the client sent that src/core/compat/catalogue.ts does not declare');
}
