// The package store reads a participant's packages one by one: one that cannot be fetched or decoded
// is named with its error and the others are read all the same; only the list failing, or a cancel,
// fails the read.
import assert from 'node:assert/strict';
import { CancelledError, NetworkError, ProtocolError, TimeoutError } from '../../../src/core/errors';
import { readDar } from '../../../src/core/daml/lf/archive';
import { PackageCache, PackageIndex } from '../../../src/core/daml/packageIndex';
import { PackageStore, type PackageSource } from '../../../src/core/ledger/packages';
import { LedgerClient } from '../../../src/core/api/client';
import type { DemoParticipant } from '../../../src/participant';
import { start } from '../../participant/helpers';

const decoder = () => ({ PackageCache, PackageIndex, readDar });

describe('PackageStore.read: package by package', function () {
  this.timeout(20_000);
  let p: DemoParticipant;
  let client: LedgerClient;
  before(async () => {
    p = await start({ port: 0 });
    client = new LedgerClient({ baseUrl: p.url });
  });
  after(() => p.close());

  /** The participant's packages, except that `broken` fails with what `fail` throws or gives back. */
  const withBroken = (broken: string, fail: () => Promise<Uint8Array>): PackageSource => ({
    packages: (o) => client.packages(o),
    packageArchive: (id, o) => (id === broken ? fail() : client.packageArchive(id, o)),
  });

  const failures: Array<[string, () => Promise<Uint8Array>, (e: Error) => boolean]> = [
    ['over the size cap', () => Promise.reject(new ProtocolError('The response to GET /v2/packages/x is larger than 67108864 bytes', undefined, undefined, { problem: 'too-large' })), (e) => e instanceof ProtocolError && e.problem === 'too-large'],
    ['a timeout', () => Promise.reject(new TimeoutError(20_000, true)), (e) => e instanceof TimeoutError],
    ['a dropped connection', () => Promise.reject(new NetworkError('socket hang up', 'ECONNRESET', true)), (e) => e instanceof NetworkError],
    ['damaged bytes', () => Promise.resolve(new Uint8Array([1, 2, 3, 4])), (e) => (e as { kind?: string }).kind === 'package-decode'],
  ];
  for (const [what, fail, isIt] of failures) {
    it(`${what}: that package is named with its error, every other package is read`, async () => {
      const ids = await client.packages();
      const broken = ids[ids.length - 1];
      const r = await new PackageStore(decoder).read(withBroken(broken, fail), new AbortController().signal);
      assert.deepEqual(r.ids, ids);
      assert.deepEqual(r.unreadable.map((u) => [u.packageId, u.name]), [[broken, `package ${broken}`]]);
      assert.ok(isIt(r.unreadable[0].error), String(r.unreadable[0].error));
      assert.deepEqual(r.packages.map((x) => x.id).sort(), ids.filter((id) => id !== broken).sort());
    });
  }

  it('a cancel fails the read (it is no unreadable package)', async () => {
    const ids = await client.packages();
    const controller = new AbortController();
    const source = withBroken(ids[0], () => {
      controller.abort();
      return Promise.reject(new CancelledError(true));
    });
    await assert.rejects(new PackageStore(decoder).read(source, controller.signal), CancelledError);
  });
});
