import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { version } from '../../package.json';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'dist', 'cli.js');

/** The newest modification time of the files under `path`. */
function newest(path: string): number {
  const s = statSync(path);
  return s.isDirectory() ? Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name)))) : s.mtimeMs;
}

describe('cli: the built executable', function () {
  this.timeout(60_000);

  before(() => {
    // Missing or older than what goes into it (sources or the build script): build it.
    const inputs = Math.max(...['src/cli', 'src/core', 'src/participant', 'scripts/build.mjs'].map((p) => newest(join(ROOT, p))));
    if (!existsSync(BIN) || statSync(BIN).mtimeMs < inputs) execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  });

  it('runs as a real process: --version, --help, and Ctrl-C stops the participant with exit 0', async () => {
    const v = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr);
    assert.equal(v.stdout, `${version}\n`);

    const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage: canton-ledger \[global options\] <command> \[options\]$/m);
    assert.match(help.stdout, /^ {2}submit +Validate a commands file/m);

    const child = spawn(process.execPath, [BIN, 'participant', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    while (!stdout.includes('Press Ctrl-C to stop.')) {
      if (child.exitCode !== null) assert.fail(`the participant exited early (${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(stdout, /SIMULATOR/);
    child.kill('SIGINT');
    assert.equal(await exited, 0);
  });
});
