// `lookup-hash`: an externally signed transaction and its completions by transaction hash. The demo
// participant imitating 3.6 answers the look-ups (it knows no externally signed transaction); 3.5 has
// no such endpoints.
import assert from 'node:assert/strict';
import { type DemoParticipant } from '../../src/participant/index';
import { startCheckedParticipant } from '../support/specCheck';
import { cli } from './harness';

const HASH = '1220' + 'ab'.repeat(32);

describe('cli: lookup-hash', () => {
  let v36: DemoParticipant;
  let v35: DemoParticipant;
  before(async () => {
    v36 = await startCheckedParticipant({ port: 0, apiVersion: '3.6' });
    v35 = await startCheckedParticipant({ port: 0, apiVersion: '3.5' });
  });
  after(async () => {
    await v36.close();
    await v35.close();
  });

  it('on 3.6: nothing visible for an unknown hash is said so, exit code 1; --json gives nulls', async () => {
    const r = await cli(['--url', v36.url, 'lookup-hash', HASH, '--any-party']);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.stdout, 'No update with this transaction hash is visible.\nNo completion with this transaction hash is visible.\n');
    const json = await cli(['--url', v36.url, '--json', 'lookup-hash', HASH, '--any-party']);
    assert.deepEqual(JSON.parse(json.stdout), { update: null, completions: null });
  });

  it('before 3.6: not available (the release has no look-up by hash), nothing sent', async () => {
    const r = await cli(['--url', v35.url, 'lookup-hash', HASH, '--any-party']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /Looking up (an update|a completion) by transaction hash is not available on Canton 3\.5\.10/);
  });

  it('a hash that is neither hex nor base64 is refused before sending, naming the field', async () => {
    const r = await cli(['--url', v36.url, 'lookup-hash', 'not a hash!', '--any-party']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /transactionHash|neither hex nor base64/);
  });
});
