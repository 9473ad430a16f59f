// The one way a tree shows a failure, for every error family (Canton, auth, network and timeouts, PQS,
// a script's or a file's failure), with Retry as a row of its own or on the failure's row (PQS), a
// connection's failure headed by what failed, and a cancel that is never shown as a failure. Then the
// rule that keeps it one: no other file of the glue builds an error row.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthError, CancelledError, CantonApiError, NetworkError, NotServedError, TimeoutError, TokenWithheldError, UnsupportedOperationError } from '../../../src/core/errors';
import { FileRefusedError } from '../../../src/core/localFile';
import { PqsError } from '../../../src/core/pqs/errors';
import { Commands } from '../../../src/vscode/kit/ids';
import { errorRows, type StatusRow } from '../../../src/vscode/kit/errorRows';
import { pathUnder, sourceFiles } from '../../support/sourceFiles';

const retry = { command: 'test.retry', title: 'Retry' };
const redact = (s: string) => s.replace(/secret-\w+/g, '***');
const shape = (rows: StatusRow[]) => rows.map((r) => `${r.label} | ${r.description ?? ''} | ${r.icon ?? ''}${r.iconColor ? ` ${r.iconColor}` : ''}${r.command ? ` -> ${r.command.command}` : ''}`);

describe('error rows (one builder for every tree)', () => {
  it('a Canton rejection: its code, its cause, its hint in the tooltip, then Retry', () => {
    const err = new CantonApiError(404, { code: 'CONTRACT_NOT_FOUND', cause: 'Contract could not be found with id 00ab', errorCategory: 11 });
    const rows = errorRows('x', err, { retry, redact });
    assert.deepEqual(shape(rows), ['CONTRACT_NOT_FOUND | CONTRACT_NOT_FOUND: Contract could not be found with id 00ab | error list.errorForeground', 'Retry |  | refresh -> test.retry']);
    assert.equal(rows[0].tooltip, `${err.message}\n\n${err.hint}`);
    assert.equal(rows[0].contextValue, 'cantonLedger:error');
  });

  it('network failures and timeouts: the message with the hint of what to do', () => {
    const network = new NetworkError('Could not reach the participant (ECONNREFUSED)', 'ECONNREFUSED', false);
    const timeout = new TimeoutError(5000, true);
    for (const err of [network, timeout]) {
      const [row] = errorRows('x', err, { retry, redact });
      assert.deepEqual([row.label, row.description, row.iconColor], [err.message, err.hint, 'list.errorForeground']);
    }
  });

  it('a rejected token: "Token rejected — Update Token" (or "Permission denied"), for the connection; a withheld token too; then Retry', () => {
    const rejected = errorRows('x', new AuthError(401, 'unauthenticated'), { retry, profileId: 'p1', redact });
    assert.deepEqual(shape(rejected).map((r) => r.split(' | ')[0]), ['Token rejected — Update Token', 'Retry']);
    assert.deepEqual([rejected[0].command?.command, rejected[0].command?.arguments], [Commands.setToken, ['p1']]);
    assert.equal(errorRows('x', new AuthError(403, 'permission-denied'), { retry, redact })[0].label, 'Permission denied — Update Token');
    assert.equal(errorRows('x', new TokenWithheldError('untrusted-url', 'https://p.example'), { retry, redact })[0].label, 'Token rejected — Update Token');
  });

  it('a URL the participant is not served under: Edit Connection URL first', () => {
    const rows = errorRows('x', new NotServedError('GET', '/v2/version'), { retry, profileId: 'p1', redact });
    assert.equal(rows[0].label, 'Edit Connection URL');
    assert.deepEqual([rows[0].command?.command, rows[0].command?.arguments], [Commands.editConnection, ['p1']]);
    assert.deepEqual(rows.slice(1).map((r) => [r.icon, r.label]), [['error', rows[1].label], ['refresh', 'Retry']], 'then the failure and Retry');
  });

  it('an operation this release does not have is a fact, not a failure: no Retry', () => {
    const rows = errorRows('x', new UnsupportedOperationError('Listing command completions', '3.3.0', 'listCommandCompletions'), { retry, redact });
    assert.equal(rows.length, 1);
    assert.equal(rows[0].icon, 'info');
    assert.equal(rows[0].iconColor, undefined);
  });

  it('a PQS failure: its message and hint; where the row is the Retry, "click to retry"', () => {
    const err = new PqsError('offset-out-of-range', 'Offset 99 is after the latest known offset 12');
    assert.deepEqual(shape(errorRows('x', err, { redact })), [`${err.message} | ${err.hint} | error list.errorForeground`]);
    assert.deepEqual(shape(errorRows('x', err, { retry, retryOnRow: true, redact })), [`${err.message} | click to retry | error list.errorForeground -> test.retry`]);
  });

  it("a script's or a file's failure and any other error: its message, redacted", () => {
    const refused = new FileRefusedError('big.dar', 'too-large', 1024 * 1024);
    assert.deepEqual(shape(errorRows('x', refused, { redact })), [`${refused.message} |  | error list.errorForeground`]);
    assert.equal(errorRows('x', new Error('token secret-abc leaked'), { redact })[0].label, 'token *** leaked');
    assert.equal(errorRows('x', 'plain text', { redact })[0].label, 'plain text');
  });

  it('a cancel, of a ledger read or a PQS query, is never a failure: a neutral "Cancelled", not coloured, no error icon', () => {
    for (const err of [new CancelledError(), new PqsError('cancelled', 'Cancelled')]) {
      const rows = errorRows('x', err, { retry, redact });
      assert.deepEqual(rows.map((r) => r.label), ['Cancelled', 'Retry']);
      assert.notEqual(rows[0].icon, 'error');
      assert.equal(rows[0].iconColor, undefined);
      assert.notEqual(rows[0].contextValue, 'cantonLedger:error');
      const onRow = errorRows('x', err, { retry, retryOnRow: true, redact });
      assert.deepEqual(onRow.map((r) => [r.label, r.iconColor]), [['Cancelled', undefined]]);
    }
  });

  it("a connection's failure is headed by what failed; a rejected token gets Update Token, a withheld one does not", () => {
    const target = { connection: 'p1' };
    const refused = errorRows('p1', new NetworkError('Could not reach the participant (ECONNREFUSED)', 'ECONNREFUSED', false), { title: 'Could not connect', target, retry, redact });
    assert.deepEqual(shape(refused), ['Could not connect | Could not reach the participant (ECONNREFUSED) | error list.errorForeground', 'Retry |  | refresh -> test.retry']);
    const rejected = errorRows('p1', new AuthError(401, 'unauthenticated'), { title: 'Token rejected', target, retry, redact });
    assert.deepEqual(rejected.map((r) => r.label), ['Token rejected', 'Update Token', 'Retry']);
    assert.deepEqual(rejected[1].command?.arguments, [target]);
    const withheld = errorRows('p1', new TokenWithheldError('insecure-http', 'http://10.0.0.1:1'), { title: 'Could not connect', target, retry, redact });
    assert.deepEqual(withheld.map((r) => r.label), ['Could not connect', 'Retry']);
  });
});

const SRC_VSCODE = join(__dirname, '..', '..', '..', 'src', 'vscode');
const BUILDER = join(SRC_VSCODE, 'kit', 'errorRows.ts');


/** A row built with the error icon: what a tree's own error row looks like. */
const OWN_ERROR_ROW = /\bicon:\s*'error'|new (?:vscode\.)?ThemeIcon\(\s*'error'\s*,\s*new (?:vscode\.)?ThemeColor\(\s*'list\.errorForeground'/;

describe('one error row for every tree', () => {
  it('finds a row a tree builds with the error icon itself (the check can fail)', () => {
    assert.ok(OWN_ERROR_ROW.test("return { kind: 'message', id, label: e.message, icon: 'error' };"));
    assert.ok(OWN_ERROR_ROW.test(readFileSync(BUILDER, 'utf8')), 'the builder itself is found');
  });

  it('no file of the glue but the error builder makes an error row', () => {
    const own = sourceFiles(SRC_VSCODE).filter((f) => f !== BUILDER && OWN_ERROR_ROW.test(readFileSync(f, 'utf8')));
    assert.deepEqual(own.map((f) => pathUnder(SRC_VSCODE, f)), []);
  });
});
