// Hostile files, generated from the valid corpus with a fixed seed: every one must get a verdict
// (never an exception), with positions inside the text, and the numbers and nesting that JSON.parse
// hides must be reported where they are written. Run by the CLI too, as one batch.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { survivesDoubles } from '../../../src/core/json';
import { JsonDocument, MAX_NESTING, scanByParser } from '../../../src/core/files/jsonDocument';
import { validateText, type FileKind, type Problem } from '../../../src/core/files/validate';
import { cli } from '../../cli/harness';
import { validCorpus } from '../../fixtures/files/corpus';

const FILES = 12_000;
const SEED = 0x15c0ffee;

/** mulberry32: small, fast, and the same sequence everywhere. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Expectation {
  /** A problem with this code must start at this offset. */
  code: string;
  offset: number;
}

interface FuzzFile {
  kind: FileKind;
  text: string;
  mutation: string;
  expect?: Expectation;
}

const HUGE_INTEGERS = ['9223372036854775808', '123456789012345678901234567890', '-9223372036854775809', '1' + '0'.repeat(400)];
const NOT_WHOLE = ['1e-400', '0.5e-1', '12.000000000000000000001', '-1e-9999'];
const INEXACT = ['9007199254740993', '0.1000000000000000000001', '1e400', '123456789012345678901234567890.25'];
const JUNK = ['{', '}', '[', ']', ',', ':', '"', '\\', '\u0000', '\ufeff', 'null', '1e', '-', '\ud800', '/*', '\n'];

function generate(count: number): FuzzFile[] {
  const rnd = random(SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const corpus = validCorpus();
  // JsCommands files (not full requests, which nest them under "commands"): fields go at the top.
  const commandsCorpus = corpus.filter((f) => f.kind === 'commands' && 'commandId' in JSON.parse(f.text));
  const files: FuzzFile[] = [];
  for (let i = 0; i < count; i++) {
    // Numbers go into commands files, which have integer fields and Daml values.
    const base = pick(i % 6 === 1 || i % 6 === 2 ? commandsCorpus : corpus);
    const text = base.text;
    const kind = base.kind;
    const at = (re: RegExp) => [...text.matchAll(re)].map((m) => m.index! + m[0].length - m[1].length);
    switch (i % 6) {
      case 0: {
        // Deep nesting in place of a value (string values: the file stays valid JSON otherwise).
        const sites = at(/: ("[^"]*")/g);
        const site = pick(sites);
        const end = text.indexOf('"', site + 1) + 1;
        const depth = 1 + Math.floor(rnd() * 12_000);
        const open = rnd() < 0.5 ? '[' : '{"k":';
        const close = open === '[' ? ']' : '}';
        const mutated = text.slice(0, site) + open.repeat(depth) + '0' + close.repeat(depth) + text.slice(end);
        // The nesting levels before the site, counted on the text as the checker does.
        let before = 0;
        for (const ch of stripStrings(text.slice(0, site))) before += ch === '{' || ch === '[' ? 1 : ch === '}' || ch === ']' ? -1 : 0;
        // Level `before + k` opens at the k-th bracket, `(k - 1) * open.length` after the site.
        const crossing = before + depth > MAX_NESTING ? site + (MAX_NESTING - before) * open.length : -1;
        files.push({ kind, text: mutated, mutation: `nest ${depth}`, expect: crossing >= 0 ? { code: 'too-deep', offset: crossing } : undefined });
        break;
      }
      case 1:
      case 2: {
        // A number as written that a double misreads, in an integer field or inside a Daml value.
        const literal = pick(i % 6 === 1 ? [...HUGE_INTEGERS, ...NOT_WHOLE] : INEXACT);
        const field = i % 6 === 1 ? `"deduplicationPeriod": {"DeduplicationDuration": {"value": {"seconds": 1, "nanos": 0}}}` : `"x": 0`;
        const withField = insertTopLevel(text, field);
        const valueAt = withField.text.indexOf(i % 6 === 1 ? (rnd() < 0.5 ? '"seconds": 1' : '"nanos": 0') : '"x": 0', withField.at);
        const numberAt = withField.text.indexOf(':', valueAt) + 2;
        const numberEnd = numberAt + 1;
        const mutated = withField.text.slice(0, numberAt) + literal + withField.text.slice(numberEnd);
        // A fraction JSON.parse keeps (0.05) is the schema's own integer type error.
        const expected = i % 6 === 2 ? 'inexact-number' : HUGE_INTEGERS.includes(literal) ? 'integer-range' : Number.isInteger(Number(literal)) ? 'not-an-integer' : 'schema';
        files.push({ kind, text: mutated, mutation: `number ${literal}`, expect: { code: expected, offset: numberAt } });
        break;
      }
      case 3: {
        // Truncated anywhere.
        files.push({ kind, text: text.slice(0, Math.floor(rnd() * text.length)), mutation: 'truncated' });
        break;
      }
      default: {
        // Junk spliced in at a few places.
        let mutated = text;
        for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
          const p = Math.floor(rnd() * mutated.length);
          mutated = mutated.slice(0, p) + pick(JUNK) + mutated.slice(p + (rnd() < 0.5 ? 1 : 0));
        }
        files.push({ kind, text: mutated, mutation: 'junk' });
      }
    }
  }
  return files;
}

function stripStrings(s: string): string {
  return s.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

/** Adds `field` as the file's last top-level field (so that it wins over one of the same name, as in JSON.parse). */
function insertTopLevel(text: string, field: string): { text: string; at: number } {
  const brace = text.lastIndexOf('}');
  return { text: text.slice(0, brace) + ', ' + field + text.slice(brace), at: brace + 2 };
}

function checkVerdict(file: FuzzFile, problems: Problem[]): void {
  for (const p of problems) {
    assert.ok(p.offset >= 0 && p.offset + p.length <= file.text.length, `${file.mutation}: problem outside the text: ${JSON.stringify(p)}`);
    assert.ok(p.line >= 1 && p.column >= 1, `${file.mutation}: ${JSON.stringify(p)}`);
    assert.notEqual(p.code, 'check-failed', `${file.mutation}: the checks failed: ${p.message}`);
  }
  if (file.expect) {
    const hit = problems.find((p) => p.code === file.expect!.code && p.offset === file.expect!.offset);
    assert.ok(hit, `${file.mutation}: expected ${file.expect.code} at ${file.expect.offset}, got ${JSON.stringify(problems.map((p) => [p.code, p.offset]))}`);
  }
}

describe('core: validate, fuzzed files (fixed seed)', function () {
  this.timeout(120_000);
  const files = generate(FILES);

  it(`gives each of ${FILES} hostile files a verdict, and finds the nesting and numbers JSON.parse hides`, () => {
    const counts = new Map<string, number>();
    for (const file of files) {
      const { problems } = validateText(file.kind, file.text);
      checkVerdict(file, problems);
      const key = file.expect?.code ?? (problems.length ? 'other problems' : 'ok');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    // The generator must really produce each kind of hostile file.
    for (const code of ['too-deep', 'integer-range', 'not-an-integer', 'inexact-number']) assert.ok((counts.get(code) ?? 0) > 200, `${code}: ${counts.get(code)}`);
    assert.ok(files.filter((f) => f.mutation.startsWith('nest') && Number(f.mutation.slice(5)) >= 10_000).length > 50, 'some nested 10,000 levels or more');
  });

  it('a document of strict JSON (JSON.parse and one scan) finds the same syntax errors, duplicate keys and numbers as the parser does', () => {
    // Keys and key-like strings in arrays and in strings, escapes, and every number form.
    const odd = ['{"a":1,"a":2}', '[{"a":1},{"a":2}]', '{"a":{"b":1},"b":{"a":1}}', '{"a":"x\\":1,\\"a\\":"}', '{"k" :1, "k"\n:2}', '{"a":["a",{"a":"a"}]}', '{"__proto__":1,"__proto__":2}', '{"n":[-0,0.5e-3,1E+2,-12.75,7]}', '"\\"', '{"\\u0061":1,"a":2}', '\u00a0{}', '{"a":1}\ufeff'];
    let strict = 0;
    for (const text of [...files.map((f) => f.text), ...validCorpus().map((f) => f.text), ...odd]) {
      const doc = new JsonDocument(text);
      if (doc.syntaxProblems.some((p) => p.tooDeep)) continue;
      const byParser = scanByParser(text);
      assert.deepEqual(doc.syntaxProblems, byParser.syntaxProblems, text);
      assert.equal(doc.hasDuplicateKeys, byParser.hasDuplicateKeys, text);
      assert.deepEqual(doc.numberRanges, byParser.numberRanges, text);
      if (doc.syntaxProblems.length === 0) {
        strict++;
        assert.deepEqual(doc.takeValue(), JSON.parse(text));
        assert.equal(doc.takeValue(), undefined, 'handed over once');
      }
    }
    assert.ok(strict > 4000, `strict JSON among them: ${strict}`);
  });

  it('the inexact numbers really are ones a double changes', () => {
    for (const literal of INEXACT) assert.ok(!survivesDoubles(literal), literal);
  });

  it('the CLI checks a batch of them to the end: one verdict per file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-fuzz-'));
    try {
      const batch = files.filter((_, i) => i % 40 === 0);
      const paths = batch.map((f, i) => {
        const path = join(dir, `f${i}.${f.kind}.json`);
        writeFileSync(path, f.text);
        return path;
      });
      const r = await cli(['validate', ...paths]);
      const output = r.stdout + r.stderr;
      for (const path of paths) assert.ok(output.includes(`${path}:`), `no verdict for ${path}`);
      assert.doesNotMatch(output, /could not be checked/);
      assert.equal(r.status, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
