import assert from 'node:assert/strict';
import { ExactNumber, parseDecimal, stringifyJson, survivesDoubles } from '../../../src/core/json';
import { MAX_NESTING } from '../../../src/core/files/jsonDocument';
import { validateText, type Problem } from '../../../src/core/files/validate';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';

/** A valid commands file with `extra` spliced into its top level and `args` as the create arguments. */
function commandsFile(extra: string, args = '{"owner": "x"}'): string {
  return `{"commandId": "n-1", "actAs": ["${ALICE}"], ${extra}"commands": [{"CreateCommand": {"templateId": "#m:Iou:Iou", "createArguments": ${args}}}]}`;
}

function codes(problems: Problem[]): string[] {
  return problems.map((p) => p.code);
}

describe('core: numbers as written', () => {
  it('reads a literal exactly: digits and exponent without leading or trailing zeros', () => {
    assert.deepEqual(parseDecimal('-0012.3400e2'), { negative: true, digits: '1234', exponent: 0 });
    assert.deepEqual(parseDecimal('1e-400'), { negative: false, digits: '1', exponent: -400 });
    assert.deepEqual(parseDecimal('-0.0'), { negative: false, digits: '', exponent: 0 });
    assert.equal(parseDecimal('0x10'), undefined);
  });

  it('knows which literals a double keeps', () => {
    for (const kept of ['0', '17', '0.1', '1.50', '9007199254740991', '1e21', '-2.5e-3']) assert.ok(survivesDoubles(kept), kept);
    for (const lost of ['9007199254740993', '123456789012345678901234567890', '1e-400', '1e400', '0.1000000000000000000001']) assert.ok(!survivesDoubles(lost), lost);
  });

  it('writes ExactNumbers with their digits, everything else as JSON.stringify does', () => {
    const body = { a: new ExactNumber('9007199254740993'), b: [1, new ExactNumber('1e-400')], s: 'exact-number-x', n: null };
    assert.equal(stringifyJson(body), '{"a":9007199254740993,"b":[1,1e-400],"s":"exact-number-x","n":null}');
    assert.equal(stringifyJson({ x: 1 }), JSON.stringify({ x: 1 }));
  });

  it('keeps the digits of each call apart when writing a value writes JSON itself, and leaves JSON.stringify as it was', () => {
    // A toJSON in the value that writes JSON of its own with stringifyJson, midway through the outer call.
    const inner = { toJSON: () => stringifyJson({ deep: new ExactNumber('123456789012345678901234567890') }) };
    const written = stringifyJson({ before: new ExactNumber('9007199254740993'), inner, after: new ExactNumber('1e-400') });
    assert.equal(written, '{"before":9007199254740993,"inner":"{\\"deep\\":123456789012345678901234567890}","after":1e-400}');
    assert.equal(JSON.stringify({ a: new ExactNumber('1e-400') }), '{"a":{"text":"1e-400"}}');
  });
});

describe('core: validate, numbers and nesting', () => {
  it('an int64 duration beyond 2^63 is an error at its position, though its double passes the schema', () => {
    for (const seconds of ['9223372036854775808', '123456789012345678901234567890']) {
      const text = commandsFile(`"deduplicationPeriod": {"DeduplicationDuration": {"value": {"seconds": ${seconds}, "nanos": 0}}}, `);
      const { problems } = validateText('commands', text);
      const p = problems.find((x) => x.code === 'integer-range');
      assert.ok(p, `${seconds}: ${JSON.stringify(problems)}`);
      assert.equal(p.severity, 'error');
      assert.equal(p.path, '/deduplicationPeriod/DeduplicationDuration/value/seconds');
      assert.equal(text.slice(p.offset, p.offset + p.length), seconds);
    }
    // The largest int64 is fine.
    const max = validateText('commands', commandsFile(`"deduplicationPeriod": {"DeduplicationDuration": {"value": {"seconds": 9223372036854775807, "nanos": 0}}}, `));
    assert.ok(!codes(max.problems).includes('integer-range'), JSON.stringify(max.problems));
  });

  it('a number that is not whole as written is an error in an integer field, even when JSON.parse makes it whole', () => {
    const text = commandsFile(`"deduplicationPeriod": {"DeduplicationDuration": {"value": {"seconds": 1, "nanos": 1e-400}}}, `);
    const p = validateText('commands', text).problems.find((x) => x.code === 'not-an-integer');
    assert.ok(p);
    assert.equal(text.slice(p.offset, p.offset + p.length), '1e-400');
    // Whole numbers in other notations are integers (Canton's decoder accepts them).
    const whole = validateText('commands', commandsFile(`"deduplicationPeriod": {"DeduplicationDuration": {"value": {"seconds": 1e2, "nanos": 0}}}, `));
    assert.deepEqual(whole.problems, []);
  });

  it('an integer beyond 2^53 warns and is sent with its digits as written', () => {
    const text = commandsFile(`"deduplicationPeriod": {"DeduplicationOffset": {"value": 9007199254740993}}, `);
    const { problems, value } = validateText('commands', text);
    assert.deepEqual(codes(problems), ['inexact-number']);
    assert.equal(problems[0].severity, 'warning');
    assert.match(stringifyJson(value), /"DeduplicationOffset":\{"value":9007199254740993\}/);
  });

  it('numbers inside Daml values are sent as written too, and plain ones stay numbers', () => {
    const { problems, value } = validateText('commands', commandsFile('', '{"amount": 123456789012345678901234567890.5, "count": 3}'));
    assert.deepEqual(codes(problems), ['inexact-number']);
    const sent = JSON.parse(stringifyJson(value).replace('123456789012345678901234567890.5', '"X"'));
    assert.deepEqual(sent.commands[0].CreateCommand.createArguments, { amount: 'X', count: 3 });
  });

  it(`nesting deeper than ${MAX_NESTING} levels gets one diagnostic where the limit is crossed, not a crash`, () => {
    for (const depth of [MAX_NESTING, 10_000, 1_000_000]) {
      const text = commandsFile('', `{"deep": ${'['.repeat(depth)}${']'.repeat(depth)}}`);
      const { problems } = validateText('commands', text);
      // Five levels come first: the file, commands, the command, CreateCommand, createArguments.
      const limitAt = text.indexOf('[[') + MAX_NESTING - 5;
      if (depth + 5 <= MAX_NESTING) {
        assert.ok(!codes(problems).includes('too-deep'));
        continue;
      }
      assert.deepEqual(codes(problems), ['too-deep'], `depth ${depth}`);
      assert.equal(problems[0].offset, limitAt);
      assert.match(problems[0].message, new RegExp(`more than ${MAX_NESTING} levels`));
    }
  });

  it('a failure of the checks themselves is a diagnostic of the file, not an exception', () => {
    const parse = JSON.parse;
    JSON.parse = () => {
      throw new RangeError('simulated');
    };
    try {
      const { problems } = validateText('commands', commandsFile(''));
      assert.deepEqual(codes(problems), ['check-failed']);
      assert.match(problems[0].message, /could not be checked \(simulated\)/);
    } finally {
      JSON.parse = parse;
    }
  });

  it('brackets inside strings do not count as nesting', () => {
    const { problems } = validateText('commands', commandsFile('', `{"text": "${'['.repeat(MAX_NESTING + 10)}\\"{"}`));
    assert.deepEqual(problems, []);
  });
});
