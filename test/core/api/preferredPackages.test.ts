import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { CantonApiError, RequestValidationError } from '../../../src/core/errors';
import { GrpcCode } from '../../../src/core/errorCatalog';
import type { DemoParticipant } from '../../../src/participant/index';
import { startCheckedParticipant } from '../../support/specCheck';

describe('client: preferred-packages', () => {
  let p: DemoParticipant;
  afterEach(() => p?.close());

  for (const apiVersion of ['3.3', '3.4.11', '3.5', '3.6'] as const) {
    it(`${apiVersion}: Canton's version for the parties, in the request shape the release decodes`, async () => {
      const bodies: string[] = [];
      p = await startCheckedParticipant({ seed: 3, apiVersion, onExchange: (x) => void (x.path.endsWith('/preferred-packages') && bodies.push(x.requestBody)) });
      const client = new LedgerClient({ baseUrl: p.url });
      const answer = await client.preferredPackages([{ packageName: 'demo-iou', parties: [p.parties.alice, p.parties.bob] }]);
      assert.deepEqual(answer.packageReferences.map((r) => [r.packageName, r.packageVersion]), [['demo-iou', '1.0.0']]);
      assert.equal(answer.synchronizerId, p.state.synchronizers[0].id);
      // Before 3.4.12 the decoder insists on synchronizerId (empty: every synchronizer).
      assert.equal('synchronizerId' in JSON.parse(bodies[0]), apiVersion === '3.3' || apiVersion === '3.4.11');
    });
  }

  it('no version fits: NO_PREFERRED_PACKAGES_FOUND, FAILED_PRECONDITION, as a typed Canton error', async () => {
    p = await startCheckedParticipant({ seed: 3 });
    const client = new LedgerClient({ baseUrl: p.url });
    const nobody = `Nobody::1220${'00'.repeat(32)}`;
    await assert.rejects(client.preferredPackages([{ packageName: 'demo-iou', parties: [nobody] }]), (e) => e instanceof CantonApiError && e.code === 'NO_PREFERRED_PACKAGES_FOUND' && e.grpcCode === GrpcCode.FAILED_PRECONDITION && e.cause_.includes(nobody));
    await assert.rejects(client.preferredPackages([]), RequestValidationError);
  });
});
