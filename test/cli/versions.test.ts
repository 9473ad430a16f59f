// The CLI against a demo participant of every Canton release it supports, with a token: list
// updates, read a contract's events, submit a create and an exercise, dry-run and apply a vetting
// change. Every exchange is checked against the release's spec (see ../support/specCheck.ts);
// where a release lacks an operation the CLI says so and exits 1, without sending anything that
// would get a 404.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiVersion, DemoParticipant, Exchange } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, offsetsOf, writeJson } from './harness';

const IOU = '#demo-iou:Iou:Iou';
const SECRET = 'cli-versions-shared-secret-0123456789';
const RELEASES: Array<{ apiVersion: ApiVersion; version: string; vetting: boolean }> = [
  { apiVersion: '3.3', version: '3.3.0', vetting: false },
  { apiVersion: '3.4.11', version: '3.4.11', vetting: true },
  { apiVersion: '3.4', version: '3.4.12', vetting: true },
  { apiVersion: '3.5', version: '3.5.10', vetting: true },
  { apiVersion: '3.6', version: '3.6.0', vetting: true },
];

describe('cli: every supported Canton release', function () {
  this.timeout(30_000);

  for (const { apiVersion, version, vetting } of RELEASES) {
    describe(`Canton ${version} (--api-version ${apiVersion})`, () => {
      let p: DemoParticipant;
      let env: Record<string, string>;
      let dir: string;
      const exchanges: Exchange[] = [];

      before(async () => {
        p = await startCheckedParticipant({ port: 0, seed: 17, apiVersion, synchronizers: 1, auth: { secret: SECRET }, onExchange: (x) => exchanges.push(x) });
        env = { CANTON_LEDGER_URL: p.url, CANTON_LEDGER_TOKEN: await p.mintToken('demo-admin') };
        dir = mkdtempSync(join(tmpdir(), `cli-${apiVersion}-`));
      });
      after(() => p.close());
      afterEach(() => assert.deepEqual(exchanges.filter((x) => x.status === 404 && /text\/plain/.test(x.contentType)).map((x) => `${x.method} ${x.path}`), [], 'no request to a path this release lacks'));

      it('lists updates, topology included, as the token’s user (3.3: the user from the token)', async () => {
        const r = await cli(['updates', '--topology', '--verbose'], env);
        assert.equal(r.status, 0, r.stderr);
        assert.match(r.stderr, /User demo-admin reads as any party/);
        assert.ok(offsetsOf(r.stdout).length > 10, r.stdout);
        assert.match(r.stdout, /topology .* 1 authorization change/, 'topology events are read in this release’s shape');
      });

      it('submits a create and an exercise, and reads the contract’s events', async () => {
        const { bank, alice, bob } = p.parties;
        const create = writeJson(dir, 'create.commands.json', { commandId: `create-${apiVersion.replace(/\./g, '_')}`, actAs: [bank], commands: [{ CreateCommand: { templateId: IOU, createArguments: { issuer: bank, owner: alice, currency: 'USD', amount: '12', observers: [] } } }] });
        const created = await cli(['submit', create], env);
        assert.equal(created.status, 0, created.stderr);
        const cid = /^  created +\S+  (00[0-9a-f]+)$/m.exec(created.stdout)![1];
        const transfer = writeJson(dir, 'transfer.commands.json', { commandId: `transfer-${apiVersion.replace(/\./g, '_')}`, actAs: [alice], commands: [{ ExerciseCommand: { templateId: IOU, contractId: cid, choice: 'Iou_Transfer', choiceArgument: { newOwner: bob } } }] });
        const exercised = await cli(['submit', transfer], env);
        assert.equal(exercised.status, 0, exercised.stderr);
        // By default the answer is the ledger-effects tree for the submitters: Alice's exercise and the Iou it created.
        assert.match(exercised.stdout, /at offset \d+: 1 created, 1 exercised$/m);
        const events = await cli(['events', cid, '--any-party'], env);
        assert.equal(events.status, 0, events.stderr);
        assert.match(events.stdout, /^  status: +archived/m);
      });

      it(vetting ? 'dry-runs and applies a vetting change' : 'says vetting is not available on Canton 3.3 (exit 1), without asking the participant', async () => {
        const file = writeJson(dir, 'upgrade.vetting.json', { changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'demo-iou', packageVersion: '2.0.0' }] } } } }] });
        const before = exchanges.length;
        const dry = await cli(['vet', file, '--dry-run'], env);
        if (!vetting) {
          assert.equal(dry.status, 1);
          assert.match(dry.stderr, /^error: UNSUPPORTED: Package vetting is not available on Canton 3\.3\.0$/m);
          assert.ok(!exchanges.slice(before).some((x) => x.path.startsWith('/v2/package-vetting')), 'nothing sent');
          return;
        }
        assert.equal(dry.status, 0, dry.stderr);
        assert.match(dry.stdout, /^Dry run: nothing was changed/);
        const applied = await cli(['vet', file], env);
        assert.equal(applied.status, 0, applied.stderr);
        assert.match(applied.stdout, /^Added:\n  \+ demo-iou 2\.0\.0/m);
        const paths = new Set(exchanges.slice(before).filter((x) => x.path.startsWith('/v2/package-vetting')).map((x) => `${x.method} ${x.path}`));
        assert.deepEqual([...paths], [version === '3.4.11' ? 'POST /v2/package-vetting' : 'POST /v2/package-vetting/update']);
      });
    });
  }
});
