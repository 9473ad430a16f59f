import assert from 'node:assert/strict';
import { version } from '../../package.json';
import { deadPort, deadUrl } from '../support/deadPort';
import { sendJson, TestServer } from '../support/httpServer';
import { cli } from './harness';

describe('cli: usage', () => {
  it('prints the overview on --help and the version on --version', async () => {
    const help = await cli(['--help']);
    assert.equal(help.status, 0);
    for (const name of ['participant', 'updates', 'events', 'submit', 'vet', 'validate', 'token']) assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'));
    assert.match(help.stdout, /CANTON_LEDGER_TOKEN/);
    assert.match(help.stdout, /http:\/\/127\.0\.0\.1:7575/);

    const v = await cli(['--version']);
    assert.deepEqual(v, { status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('prints a command page on <command> --help, wherever the flag is', async () => {
    for (const argv of [['updates', '--help'], ['--help', 'updates'], ['-h', 'updates']]) {
      const r = await cli(argv);
      assert.equal(r.status, 0, argv.join(' '));
      assert.match(r.stdout, /^Usage: canton-ledger updates \[--begin N\]/);
      assert.match(r.stdout, /--page-size N/);
    }
  });

  it('exits 2 without a command, and for an unknown command or flag', async () => {
    const none = await cli([]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /Usage: canton-ledger/);

    const unknown = await cli(['udpates']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /error: unknown command "udpates"/);

    const flag = await cli(['updates', '--frobnicate']);
    assert.equal(flag.status, 2);
    assert.match(flag.stderr, /--frobnicate/);
    assert.match(flag.stderr, /usage: canton-ledger updates /);
  });

  it('refuses a token on the command line, without echoing it', async () => {
    for (const argv of [['--token', 'eyJsecret-token-value', 'updates'], ['updates', '--token=eyJsecret-token-value']]) {
      const r = await cli(argv);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /--token is not accepted/);
      assert.match(r.stderr, /CANTON_LEDGER_TOKEN/);
      assert.doesNotMatch(r.stderr + r.stdout, /secret-token-value/);
    }
  });

  it('refuses --auth-secret and says what to use instead', async () => {
    const r = await cli(['participant', '--auth-secret', 'hunter2hunter2']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--auth-secret is not accepted/);
    assert.match(r.stderr, /CANTON_LEDGER_AUTH_SECRET/);
    assert.match(r.stderr, /--auth-secret-file/);
    assert.doesNotMatch(r.stderr, /hunter2/);
  });

  it('exits 2 on bad numbers and bad choices', async () => {
    const cases: [string[], RegExp][] = [
      [['updates', '--limit', 'abc'], /--limit needs an integer ≥ 1, not "abc"/],
      [['updates', '--limit', '0'], /--limit needs an integer ≥ 1/],
      [['updates', '--page-size', '1e2'], /--page-size needs an integer/],
      [['updates', '--begin=-1'], /--begin needs an integer ≥ 0/],
      // A negative number after its option is that option's value, not an option of its own.
      [['acs', '--at', '-1'], /--at needs an integer ≥ 0, not "-1"/],
      [['graph', '--lineage', '00ab', '--max-distance', '-1'], /--max-distance needs an integer ≥ 1, not "-1"/],
      [['updates', '--begin', '5', '--end', '3'], /--end \(3\) is before --begin \(5\)/],
      [['updates', '--shape', 'trees'], /--shape must be acs-delta or ledger-effects/],
      [['updates', '--legacy', '--topology'], /--legacy reads ACS-delta transactions and reassignments only/],
      [['--timeout', '2.5', 'updates'], /--timeout needs an integer/],
      [['participant', '--synchronizers', '3'], /--synchronizers must be 1 or 2/],
      [['participant', '--api-version', '2.9'], /--api-version must be one of/],
      [['participant', '--port', '70000'], /--port must be at most 65535/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv);
      assert.equal(r.status, 2, argv.join(' '));
      assert.match(r.stderr, message, argv.join(' '));
    }
  });

  it('exits 2 on missing or extra arguments and a bad URL', async () => {
    const cases: [string[], RegExp][] = [
      [['events'], /missing CONTRACT_ID/],
      [['events', 'a', 'b'], /unexpected argument "b"/],
      [['submit'], /missing FILE\.commands\.json/],
      [['validate'], /missing FILE/],
      [['token', '--participant-id', 'p'], /missing --user/],
      [['--url', 'ftp://example.org', 'updates'], /must be http or https/],
      [['--url', 'not a url', 'updates'], /not a URL/],
      [['submit', 'x.vetting.json'], /submit takes a \.commands\.json file/],
      [['submit', '/nonexistent/a.commands.json'], /cannot read \/nonexistent\/a\.commands\.json: no such file/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(argv, { CANTON_LEDGER_URL: await deadUrl() });
      assert.equal(r.status, 2, argv.join(' '));
      assert.match(r.stderr, message, argv.join(' '));
    }
  });

  it('reports an unreachable participant with its code and hint (exit 1)', async () => {
    const port = await deadPort();
    const r = await cli(['--url', `http://127.0.0.1:${port}`, 'updates', '--any-party']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error: ECONNREFUSED: Could not reach the participant/m);
    assert.match(r.stderr, /^hint: Nothing listens at that address/m);
  });

  it('takes the URL from CANTON_LEDGER_URL, and --url over it', async () => {
    const server = new TestServer();
    server.handler = (req, res) =>
      req.url === '/v2/version'
        ? sendJson(res, 200, { version: '3.5.10' })
        : sendJson(res, 404, { code: 'CONTRACT_EVENTS_NOT_FOUND', cause: 'Contract events not found, or not visible.', context: {}, errorCategory: 11 });
    const url = await server.start();
    try {
      const fromEnv = await cli(['events', 'cid', '--any-party'], { CANTON_LEDGER_URL: url });
      assert.equal(fromEnv.status, 1);
      assert.match(fromEnv.stderr, /CONTRACT_EVENTS_NOT_FOUND/);
      assert.deepEqual(server.received.map((r) => r.url), ['/v2/version', '/v2/events/events-by-contract-id']);

      const port = await deadPort();
      const overridden = await cli(['--url', url, 'events', 'cid', '--any-party'], { CANTON_LEDGER_URL: `http://127.0.0.1:${port}` });
      assert.match(overridden.stderr, /CONTRACT_EVENTS_NOT_FOUND/);
      assert.equal(server.received.length, 4);
      assert.equal(server.received[3].url, '/v2/events/events-by-contract-id');
    } finally {
      await server.stop();
    }
  });

  it('gives up after --timeout MS with a TIMEOUT error (exit 1)', async () => {
    const server = new TestServer();
    server.handler = () => {}; // never answers
    const url = await server.start();
    try {
      const r = await cli(['--url', url, '--timeout', '150', 'events', 'cid', '--any-party']);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^error: TIMEOUT: No answer within 150 ms$/m);
      assert.match(r.stderr, /^hint: The participant did not answer in time/m);
    } finally {
      await server.stop();
    }
  });

  it('aborts a request on Ctrl-C and exits 130', async () => {
    const server = new TestServer();
    server.handler = () => {}; // never answers
    const url = await server.start();
    try {
      const interrupt = new AbortController();
      const running = cli(['--url', url, 'events', 'cid', '--any-party'], {}, interrupt.signal);
      while (server.received.length === 0) await new Promise((r) => setTimeout(r, 10));
      interrupt.abort();
      const r = await running;
      assert.equal(r.status, 130);
      assert.match(r.stderr, /Cancelled/);
    } finally {
      await server.stop();
    }
  });
});

/** A port nothing listens on: bound once, then released. */
