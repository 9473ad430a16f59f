// What the extension costs to ship and to load (the "extension cost" rows of `npm run bench` measure
// it; these checks keep the causes fixed there from coming back). Needs `npm run build` (npm test runs it).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/spec';

const EXTENSION_JS = join(REPO_ROOT, 'dist', 'extension.js');

describe('extension bundle', function () {
  this.timeout(60_000);
  before(function () {
    if (!existsSync(EXTENSION_JS)) assert.fail('dist/extension.js is missing: run `npm run build` first');
  });

  it('ships the extension, its validators and the demo participant in the .vsix, not the CLI (the npm package has it)', () => {
    const files = execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const scripts = files.filter((f) => /\.(c|m)?js$/.test(f)).sort();
    assert.deepEqual(scripts, ['dist/daml.js', 'dist/extension.js', 'dist/participant.js', 'dist/preview.js', 'dist/validators.js']);
    assert.ok(!files.some((f) => f.endsWith('.map')), 'no source maps');
  });

  it('leaves the schema validators to a file of their own, loaded on the first file check', () => {
    const code = readFileSync(EXTENSION_JS, 'utf8');
    assert.match(code, /require\("\.\/validators\.js"\)/);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const validators = require(join(REPO_ROOT, 'dist', 'validators.js')) as { sourceHash: string; validateCommands: unknown };
    assert.equal(typeof validators.validateCommands, 'function');
    assert.ok(!code.includes(validators.sourceHash) && !code.includes('sourceHash'), 'the generated module is not also in extension.js');
  });

  it('leaves the PreparedTransaction decoder (generated protobuf code) to dist/preview.js, loaded on the first preview', () => {
    const code = readFileSync(EXTENSION_JS, 'utf8');
    assert.ok(!code.includes('com.daml.ledger.api.v2.interactive.PreparedTransaction'), 'the protobuf types are not in extension.js');
    assert.ok(readFileSync(join(REPO_ROOT, 'dist', 'preview.js'), 'utf8').includes('com.daml.ledger.api.v2.interactive.PreparedTransaction'));
  });

  it('imports the VS Code API once, however many modules use it', () => {
    const imports = readFileSync(EXTENSION_JS, 'utf8').match(/require\("vscode"\)/g) ?? [];
    assert.equal(imports.length, 1);
  });
});
