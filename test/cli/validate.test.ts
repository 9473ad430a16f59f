import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidCorpus, validCorpus } from '../fixtures/files/corpus';
import { cli } from './harness';

/** `file:line:col: severity: message [code]` */
const PROBLEM_LINE = /^(.+):(\d+):(\d+): (error|warning): (.+) \[([a-z-]+)\]$/;

function problemLines(stdout: string, file: string) {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith(`${file}:`))
    .map((l) => {
      const m = PROBLEM_LINE.exec(l);
      assert.ok(m, `not a problem line: ${l}`);
      return { line: Number(m[2]), column: Number(m[3]), severity: m[4], code: m[6] };
    });
}

describe('cli: validate', () => {
  for (const file of validCorpus()) {
    it(`accepts valid/${file.name}`, async () => {
      const r = await cli(['validate', file.path]);
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.equal(r.stdout, `${file.path}: ok\n`);
    });
  }

  for (const file of invalidCorpus()) {
    it(`reports exactly the expected positions and codes for invalid/${file.name}`, async () => {
      const r = await cli(['validate', file.path]);
      const problems = problemLines(r.stdout, file.path);
      assert.deepEqual(
        problems.map(({ line, column, code }) => ({ line, column, code })),
        file.expected.map(({ line, column, code }) => ({ line, column, code })),
      );
      // Exit 1 exactly when an error-severity problem was printed (warnings alone pass).
      assert.equal(r.status, problems.some((p) => p.severity === 'error') ? 1 : 0);
    });
  }

  it('reads a file saved with a UTF-8 byte-order mark as VS Code does', async () => {
    const [valid] = validCorpus();
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-bom-'));
    const file = join(dir, `bom-${valid.name}`);
    writeFileSync(file, '\ufeff' + valid.text);
    const r = await cli(['validate', file]);
    assert.equal(r.stdout, `${file}: ok\n`, r.stderr);
    assert.equal(r.status, 0);
  });

  it('checks every file in one run and exits with the worst status', async () => {
    const [valid] = validCorpus();
    const invalid = invalidCorpus().find((f) => f.name.startsWith('syntax-unclosed'))!;
    const dir = mkdtempSync(join(tmpdir(), 'cli-validate-'));
    const unknownKind = join(dir, 'notes.json');
    writeFileSync(unknownKind, '{}');

    const mixed = await cli(['validate', valid.path, invalid.path]);
    assert.equal(mixed.status, 1);
    assert.match(mixed.stdout, new RegExp(`^${escape(valid.path)}: ok$`, 'm'));
    assert.ok(problemLines(mixed.stdout, invalid.path).length > 0);

    const withUsage = await cli(['validate', unknownKind, invalid.path, join(dir, 'missing.vetting.json')]);
    assert.equal(withUsage.status, 2);
    assert.match(withUsage.stderr, /notes\.json: the name must end in \.commands\.json or \.vetting\.json/);
    assert.match(withUsage.stderr, /cannot read .*missing\.vetting\.json: no such file/);
    // The usable file in between was still checked.
    assert.ok(problemLines(withUsage.stdout, invalid.path).length > 0);
  });

  it('prints one JSON line per file with --json', async () => {
    const invalid = invalidCorpus().find((f) => f.name.startsWith('missing-command-id'))!;
    const r = await cli(['validate', '--json', invalid.path]);
    assert.equal(r.status, 1);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const parsed = JSON.parse(lines[0]);
    assert.equal(parsed.file, invalid.path);
    assert.equal(parsed.kind, 'commands');
    assert.deepEqual(
      parsed.problems.map((p: { line: number; column: number; code: string }) => ({ line: p.line, column: p.column, code: p.code })),
      invalid.expected,
    );
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
