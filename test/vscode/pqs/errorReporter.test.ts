/** PQS failures through the one error reporter: a cancel says nothing, the others say what they are with their hint, Retry where another try can mend it. */
import { strict as assert } from 'node:assert';
import type { Logger } from '../../../src/core/log';
import { PqsError } from '../../../src/core/pqs/errors';
import { Redactor } from '../../../src/core/redact';
import { ErrorReporter, RETRY, SHOW_LOG, type Prompts } from '../../../src/vscode/kit/prompts';

function setUp() {
  const messages: { severity: string; text: string; actions: readonly string[] }[] = [];
  const prompts: Pick<Prompts, 'message' | 'pick' | 'progress'> = {
    message: async (severity, text, actions) => void messages.push({ severity, text, actions }),
    pick: async () => undefined,
    progress: (_title, task) => task(new AbortController().signal),
  };
  const logged: string[] = [];
  const logger: Logger = { trace() {}, debug() {}, info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), error: (m) => logged.push(`error ${m}`) };
  return { messages, logged, errors: new ErrorReporter(logger, new Redactor(), prompts, () => undefined) };
}

describe('PQS failures through the error reporter', () => {
  it('a cancelled query is a cancel: no message, one "cancelled" line in the log; recorded background work logs nothing', async () => {
    const { messages, logged, errors } = setUp();
    assert.equal(await errors.report('Run on PQS failed', new PqsError('cancelled', 'Cancelled'), { retry: () => undefined }), undefined);
    errors.record('PQS view', new PqsError('cancelled', 'Cancelled before it was sent'));
    assert.deepEqual(messages, []);
    assert.deepEqual(logged, ['info Run on PQS failed: cancelled']);
  });

  it('a timeout says so with its hint and offers Retry; the log has its kind and hint, no stack', async () => {
    const { messages, logged, errors } = setUp();
    await errors.report('Run on PQS failed', new PqsError('timeout', 'No answer within 5 ms'), { retry: () => undefined });
    assert.deepEqual(messages, [
      { severity: 'error', text: 'Run on PQS failed: No answer within 5 ms. The query ran past its time limit; narrow it (a template, an offset range, a payload index) or raise the limit.', actions: [RETRY, SHOW_LOG] },
    ]);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^warn Run on PQS failed: PqsError timeout: No answer within 5 ms\n {2}hint: The query ran past its time limit/);
    assert.ok(!/\n\s+at /.test(logged[0]), 'no stack');
  });

  it('PostgreSQL\'s refusal keeps its SQLSTATE and position in the log; no Retry for what another try cannot mend', async () => {
    const { messages, logged, errors } = setUp();
    await errors.report('Run on PQS failed', new PqsError('sql', 'column "nope" does not exist', '42703', 7), { retry: () => undefined });
    assert.deepEqual(messages.map((m) => [m.text, m.actions]), [['Run on PQS failed: column "nope" does not exist. PostgreSQL refused the statement.', [SHOW_LOG]]]);
    assert.match(logged[0], /^warn Run on PQS failed: PqsError sql \(SQLSTATE 42703, at character 8\): column "nope" does not exist/);
  });

  it('a driver that cannot load is logged with its stack, as the extension\'s own fault', async () => {
    const { logged, errors } = setUp();
    await errors.report('Connect to PQS failed', new PqsError('driver-missing', 'The PostgreSQL driver could not be loaded'));
    assert.match(logged[0], /^error Connect to PQS failed: PqsError: The PostgreSQL driver could not be loaded\n\s+at /);
  });
});
