// A step's expected failure message pattern is matched off the event loop within a time budget: a
// pattern that backtracks without end is stopped and said to be, a cancel stops it at once, and the
// patterns after it still match.
import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/core/errors';
import { MessagePatterns } from '../../../src/core/scripts/messagePattern';

/** Minutes of backtracking on the JavaScript engine for a message of 150 characters that does not end in X. */
const RUNAWAY = '^(.*.*.*.*)*X$';
const MESSAGE = 'DAML_AUTHORIZATION_ERROR: '.padEnd(150, 'y');

describe('core: expected failure message patterns', function () {
  this.timeout(20_000);
  let patterns: MessagePatterns;
  afterEach(() => patterns.dispose());

  it('matches as a regular expression does, and says when a pattern is not one', async () => {
    patterns = new MessagePatterns();
    assert.deepEqual(await patterns.match('requires authorizers Alice', 'node requires authorizers Alice::1220'), { kind: 'matched', matches: true });
    assert.deepEqual(await patterns.match('^requires', 'node requires authorizers'), { kind: 'matched', matches: false });
    const invalid = await patterns.match('(unclosed', 'x');
    assert.equal(invalid.kind, 'invalid');
    assert.match((invalid as { message: string }).message, /Unterminated group/);
  });

  it('a pattern that backtracks without end is stopped at the budget, with the event loop free meanwhile; the next pattern still matches', async () => {
    patterns = new MessagePatterns(300);
    let turns = 0;
    const counting = setInterval(() => turns++, 1);
    try {
      assert.deepEqual(await patterns.match(RUNAWAY, MESSAGE), { kind: 'too-slow', budgetMs: 300 });
    } finally {
      clearInterval(counting);
    }
    assert.ok(turns > 0, 'timers ran while the pattern was matched');
    assert.deepEqual(await patterns.match('AUTHORIZATION', MESSAGE), { kind: 'matched', matches: true });
  });

  it('a cancel stops a pattern that would run for minutes, at once', async () => {
    patterns = new MessagePatterns(10 * 60_000);
    const cancel = new AbortController();
    const matching = patterns.match(RUNAWAY, MESSAGE, cancel.signal);
    setImmediate(() => cancel.abort());
    await assert.rejects(matching, CancelledError);
    await assert.rejects(patterns.match('x', 'x', cancel.signal), CancelledError, 'an aborted signal matches nothing');
    assert.deepEqual(await patterns.match('x', 'x'), { kind: 'matched', matches: true });
  });
});
