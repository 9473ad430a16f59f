import assert from 'node:assert/strict';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli, offsetsOf } from './harness';

const SECRET = 'cli-test-shared-secret-0123456789';

describe('cli: with an auth-enabled participant', () => {
  let participant: DemoParticipant;
  let url: string;

  before(async () => {
    participant = await startCheckedParticipant({ port: 0, seed: 11, auth: { secret: SECRET } });
    url = participant.url;
  });
  after(() => participant.close());

  it('without CANTON_LEDGER_TOKEN: exit 1 with the auth error, its hint, and where the token comes from', async () => {
    const r = await cli(['--url', url, 'updates']);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: UNAUTHENTICATED: The participant rejected the token \(HTTP 401\)$/m);
    assert.match(r.stderr, /^hint: Update the token: it may be missing, expired/m);
    assert.match(r.stderr, /^note: CANTON_LEDGER_TOKEN is not set, so no token was sent\.$/m);
  });

  it('reads with the token from CANTON_LEDGER_TOKEN, as the parties of its user', async () => {
    const aliceToken = await participant.mintToken('alice');
    const alice = await cli(['--url', url, 'updates', '--verbose'], { CANTON_LEDGER_TOKEN: aliceToken });
    assert.equal(alice.status, 0, alice.stderr);
    assert.match(alice.stderr, /User alice reads as 1 party/);

    const admin = await cli(['--url', url, 'updates'], { CANTON_LEDGER_TOKEN: await participant.mintToken('demo-admin') });
    assert.equal(admin.status, 0, admin.stderr);
    // Alice sees her own transactions only, a strict subset of everything the admin sees.
    const [mine, everything] = [offsetsOf(alice.stdout), offsetsOf(admin.stdout)];
    assert.ok(mine.length > 0 && mine.length < everything.length);
    assert.ok(mine.every((o) => everything.includes(o)));

    const auditor = await cli(['--url', url, 'updates', '--verbose'], { CANTON_LEDGER_TOKEN: await participant.mintToken('auditor') });
    assert.equal(auditor.status, 0, auditor.stderr);
    assert.match(auditor.stderr, /User auditor reads as 2 parties/);
  });

  it('never prints the token, not even in verbose logs and errors', async () => {
    const token = await participant.mintToken('bob');
    const env = { CANTON_LEDGER_TOKEN: token };
    const outputs = [
      await cli(['--url', url, '--verbose', 'updates', '--limit', '2'], env),
      await cli(['--url', url, '--verbose', 'events', '00' + 'cd'.repeat(34)], env),
      await cli(['--url', url, '--verbose', 'updates', '--any-party'], env),
    ];
    assert.deepEqual(outputs.map((o) => o.status), [0, 1, 1]);
    assert.match(outputs[2].stderr, /^error: PERMISSION_DENIED: /m);
    for (const o of outputs) {
      assert.ok(!o.stdout.includes(token) && !o.stderr.includes(token));
      assert.doesNotMatch(o.stdout + o.stderr, /eyJ[\w-]+\.[\w-]+\./);
    }
  });

  it('mints a working token with the token command, from the secret in the environment', async () => {
    const minted = await cli(['token', '--user', 'bob', '--participant-id', participant.participantId], { CANTON_LEDGER_AUTH_SECRET: SECRET });
    assert.equal(minted.status, 0, minted.stderr);
    const token = minted.stdout.trim();
    assert.match(token, /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    const r = await cli(['--url', url, 'updates', '--limit', '1'], { CANTON_LEDGER_TOKEN: token });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(offsetsOf(r.stdout).length, 1);

    const wrongSecret = await cli(['token', '--user', 'bob', '--participant-id', participant.participantId], { CANTON_LEDGER_AUTH_SECRET: 'another-secret-entirely' });
    const rejected = await cli(['--url', url, 'updates'], { CANTON_LEDGER_TOKEN: wrongSecret.stdout.trim() });
    assert.equal(rejected.status, 1);
    assert.match(rejected.stderr, /UNAUTHENTICATED/);

    const noSecret = await cli(['token', '--user', 'bob', '--participant-id', participant.participantId]);
    assert.equal(noSecret.status, 2);
    assert.match(noSecret.stderr, /no shared secret: set CANTON_LEDGER_AUTH_SECRET/);
  });
});
