import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAR_DIR, DARS, requireDar, requireDarBytes } from '../support/dars';
import { cli, offsetsOf, startParticipantCommand } from './harness';

describe('cli: participant command', () => {
  it('runs a simulator without auth until Ctrl-C, then closes cleanly (exit 0)', async () => {
    const p = await startParticipantCommand([]);
    assert.match(p.banner, /SIMULATOR/);
    assert.match(p.banner, /not a Canton node/);
    assert.match(p.banner, /^ {2}auth: +none/m);
    assert.match(p.banner, /^ {2}Alice::1220[0-9a-f]{64}$/m);
    assert.match(p.banner, /^ {2}demo-admin +participant admin; read as any party; act as Bank, Alice, Bob, Charlie$/m);
    assert.match(p.banner, /^ {2}auditor +read as Alice, Bob$/m);
    assert.doesNotMatch(p.banner, /CANTON_LEDGER_TOKEN/);

    const r = await cli(['--url', p.url, 'updates', '--limit', '2']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(offsetsOf(r.stdout).length, 2);

    const stopped = await p.stop();
    assert.equal(stopped.status, 0);
    assert.match(stopped.stderr, /Stopping the demo participant/);
    // Its request log went to stderr.
    assert.match(stopped.stderr, /^\[participant\] POST \/v2\/updates\/get-updates-page -> 200/m);
    const after = await cli(['--url', p.url, 'updates', '--any-party']);
    assert.equal(after.status, 1);
    // Refused, or reset when a kept-alive connection to the closed server is reused.
    assert.match(after.stderr, /^error: (ECONNREFUSED|ECONNRESET): Could not reach the participant/m);
  });

  it('takes the secret from CANTON_LEDGER_AUTH_SECRET and prints how to get a token', async () => {
    const secret = 'participant-command-secret-42';
    const env = { CANTON_LEDGER_AUTH_SECRET: secret };
    const p = await startParticipantCommand([], env);
    try {
      assert.match(p.banner, /^ {2}auth: +HS256 user tokens, shared secret from \$CANTON_LEDGER_AUTH_SECRET$/m);
      assert.ok(!p.banner.includes(secret));
      assert.match(p.banner, new RegExp(`export CANTON_LEDGER_TOKEN="\\$\\(canton-ledger token --user demo-admin --participant-id ${p.participantId}\\)"`));

      // Following the printed instructions works; without a token the participant refuses.
      const token = (await cli(['token', '--user', 'alice', '--participant-id', p.participantId], env)).stdout.trim();
      assert.equal((await cli(['--url', p.url, 'updates', '--limit', '1'], { CANTON_LEDGER_TOKEN: token })).status, 0);
      assert.equal((await cli(['--url', p.url, 'updates', '--limit', '1'])).status, 1);
    } finally {
      assert.equal((await p.stop()).status, 0);
    }
  });

  it('reads the secret from --auth-secret-file and keeps the state in --state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-participant-'));
    const secretFile = join(dir, 'secret');
    writeFileSync(secretFile, 'file-based-secret-value\n', { mode: 0o600 });
    const statePath = join(dir, 'ledger.json');
    const p = await startParticipantCommand(['--auth-secret-file', secretFile, '--state', statePath, '--api-version', '3.4', '--synchronizers', '2']);
    assert.match(p.banner, new RegExp(`shared secret from file ${secretFile.replace(/[.]/g, '\\.')}$`, 'm'));
    assert.match(p.banner, new RegExp(`^ {2}state: +kept in ${statePath.replace(/[.]/g, '\\.')}$`, 'm'));
    // The newline `echo` adds is not part of the secret: a token minted from the same file works.
    const token = (await cli(['token', '--user', 'bob', '--participant-id', p.participantId, '--auth-secret-file', secretFile])).stdout.trim();
    const r = await cli(['--url', p.url, 'updates', '--limit', '1'], { CANTON_LEDGER_TOKEN: token });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((await p.stop()).status, 0);
    assert.ok(existsSync(statePath));
  });

  it('loads DARs with --dar (repeatable): their packages are served and vetted, their templates take creates', async function () {
    const pingFile = join(DAR_DIR, DARS.ping);
    const holdingFile = join(DAR_DIR, DARS.holding);
    requireDarBytes(this, DARS.ping);
    const ping = requireDar(this, DARS.ping);
    const p = await startParticipantCommand(['--dar', pingFile, '--dar', holdingFile]);
    try {
      assert.match(p.banner, new RegExp(`^ {2}DAR: +canton-builtin-admin-workflow-ping 3\\.4\\.0 \\(${ping.mainPackageId}\\): Canton\\.Internal\\.Ping:Ping, `, 'm'));
      assert.match(p.banner, /^ {2}DAR: +splice-api-token-holding-v1 1\.0\.0 \([0-9a-f]{64}\): no templates$/m);
      const listed = (await (await fetch(`${p.url}/v2/packages`)).json()) as { packageIds: string[] };
      assert.ok(listed.packageIds.includes(ping.mainPackageId));
      const parties = /^ {2}(Alice::1220[0-9a-f]{64})$/m.exec(p.banner)![1];
      const create = { CreateCommand: { templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping', createArguments: { id: 'cli', initiator: parties, responder: parties } } };
      const reply = await fetch(`${p.url}/v2/commands/submit-and-wait`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ commandId: 'cli-dar', actAs: [parties], commands: [create] }),
      });
      assert.equal(reply.status, 200, await reply.text());
    } finally {
      assert.equal((await p.stop()).status, 0);
    }
  });

  it('refuses a --dar that cannot be read (exit 2) or is not a DAR (exit 1)', async () => {
    const missing = await cli(['participant', '--port', '0', '--dar', '/nonexistent/x.dar']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read the DAR \/nonexistent\/x\.dar: no such file/);
    const dir = mkdtempSync(join(tmpdir(), 'cli-dar-'));
    const notADar = join(dir, 'not.dar');
    writeFileSync(notADar, 'hello');
    const bad = await cli(['participant', '--port', '0', '--dar', notADar]);
    assert.equal(bad.status, 1, bad.stderr);
    assert.match(bad.stderr, /not a zip file/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 2 when the secret source is unusable', async () => {
    const unset = await cli(['participant', '--auth-secret-env', 'NO_SUCH_VARIABLE_HERE']);
    assert.equal(unset.status, 2);
    assert.match(unset.stderr, /NO_SUCH_VARIABLE_HERE .* is not set or empty/);
    const both = await cli(['participant', '--auth-secret-env', 'X', '--auth-secret-file', 'y']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /either --auth-secret-file or --auth-secret-env, not both/);
    const missing = await cli(['participant', '--auth-secret-file', '/nonexistent/secret']);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read the secret file \/nonexistent\/secret: ENOENT/);
  });
});
