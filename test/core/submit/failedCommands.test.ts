// Whose completions the Failed Commands view reads for a connection, and how its rows are made.
import assert from 'node:assert/strict';
import type { ParticipantInfo } from '../../../src/core/ledger/connection';
import type { UserRights } from '../../../src/core/models/users';
import { Redactor } from '../../../src/core/redact';
import { REPO_ROOT } from '../../support/spec';
import { completionsSelectionFor, CompletionsUnreadableError, failedCommandRow, mergeFailedCommands, type FailedCommand } from '../../../src/core/submit/failedCommands';

const rights = (r: Partial<UserRights>): UserRights => ({ actAs: [], readAs: [], executeAs: [], participantAdmin: false, identityProviderAdmin: false, readAsAnyParty: false, executeAsAnyParty: false, ...r });
const info = (o: Partial<ParticipantInfo>): ParticipantInfo => ({ version: '3.5.7', synchronizers: [], parties: [], partiesFromRights: false, user: { id: 'alice-app' } as never, ...o });

describe('failed commands: whose completions, and the rows', () => {
  it("reads every user's where the release has command-completions and the user may read as any party (or administers the participant)", () => {
    assert.deepEqual(completionsSelectionFor(info({ rights: rights({ readAsAnyParty: true }) }), true), { parties: [], allUsers: true });
    assert.deepEqual(completionsSelectionFor(info({ rights: rights({ participantAdmin: true, actAs: ['A::1'] }) }), true), { parties: [], allUsers: true });
  });

  it("else the user's own, for every party it may act or read as (each once); without the endpoint an admin reads its own too", () => {
    assert.deepEqual(completionsSelectionFor(info({ rights: rights({ actAs: ['A::1'], readAs: ['A::1', 'B::2'] }) }), true), { parties: ['A::1', 'B::2'], userId: 'alice-app' });
    assert.deepEqual(completionsSelectionFor(info({ rights: rights({ participantAdmin: true, actAs: ['A::1'] }) }), false), { parties: ['A::1'], userId: 'alice-app' });
    // Rights not readable: the parties the connection lists.
    assert.deepEqual(completionsSelectionFor(info({ parties: [{ party: 'C::3' } as never] }), false), { parties: ['C::3'], userId: 'alice-app' });
  });

  it('a user that may read nothing, or no user: a typed error saying which, before any request', () => {
    assert.throws(
      () => completionsSelectionFor(info({ rights: rights({ executeAs: ['A::1'] }) }), true),
      (e: unknown) => e instanceof CompletionsUnreadableError && e.reason === 'no-party' && e.userId === 'alice-app',
    );
    assert.throws(() => completionsSelectionFor(info({ user: undefined, rights: rights({ actAs: ['A::1'] }) }), false), (e: unknown) => e instanceof CompletionsUnreadableError && e.reason === 'no-user');
  });

  it('the error keeps its name in a minified bundle, as the production build makes it', async () => {
    const { build } = await import('esbuild');
    const out = await build({ stdin: { contents: "export { CompletionsUnreadableError } from './src/core/submit/failedCommands';", resolveDir: REPO_ROOT, loader: 'ts' }, bundle: true, minify: true, platform: 'node', format: 'cjs', mainFields: ['module', 'main'], write: false, logLevel: 'silent' });
    const bundled = { exports: {} as { CompletionsUnreadableError: typeof CompletionsUnreadableError } };
    new Function('module', 'exports', 'require', out.outputFiles[0].text)(bundled, bundled.exports, require);
    const e = new bundled.exports.CompletionsUnreadableError('no-user');
    assert.equal(e.name, 'CompletionsUnreadableError');
    assert.match(new Redactor().redactError(e), /^CompletionsUnreadableError: The connection has no user/);
  });

  it('rows: newest first, succeeded ones only on request, a failed one names its code, a succeeded one says so', () => {
    const failure = { code: 'DUPLICATE_COMMAND', cause: 'dup', metadata: {}, resources: [] };
    const c = (key: string, time: string, failed: boolean, offset?: number): FailedCommand => ({ key, source: offset === undefined ? 'this window' : 'participant', commandId: `cmd-${key}`, actAs: [], time, offset, failure: failed ? failure : undefined });
    const participant = [c('completion:9', '2026-11-26T10:00:09Z', true, 9), c('completion:8', '2026-11-26T10:00:08Z', false, 8)];
    const local = [c('submission:1', '2026-11-26T10:00:08.5Z', true)];
    assert.deepEqual(mergeFailedCommands([participant, local], { includeSucceeded: false }).map((x) => x.key), ['completion:9', 'submission:1']);
    assert.deepEqual(mergeFailedCommands([participant, local, participant], { includeSucceeded: true }).map((x) => x.key), ['completion:9', 'submission:1', 'completion:8']);
    const failedRow = failedCommandRow(participant[0]);
    assert.deepEqual([failedRow.kind, failedRow.label, failedRow.description, failedRow.offset, failedRow.icon], ['failedCommand.failed', 'DUPLICATE_COMMAND: dup', 'offset 9 · cmd-completion:9', 9, 'error']);
    const succeededRow = failedCommandRow(participant[1]);
    assert.deepEqual([succeededRow.kind, succeededRow.label, succeededRow.description, succeededRow.icon], ['failedCommand.succeeded', 'succeeded', 'offset 8 · cmd-completion:8', 'pass']);
    assert.equal(failedCommandRow(local[0]).description, 'this window · cmd-submission:1');
  });

  it('a row leads with the code and what failed, so a narrow pane still shows them; a long cause is cut, the whole one is in the tooltip', () => {
    const commandId = '3f9c1d2e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    const cause = `Contract could not be found with id 00${'ab'.repeat(33)}\n and more words after it to make it long`;
    const row = failedCommandRow({ key: 'completion:3', source: 'participant', commandId, actAs: [], offset: 3, failure: { code: 'CONTRACT_NOT_FOUND', cause, metadata: {}, resources: [] } });
    assert.ok(row.label!.startsWith('CONTRACT_NOT_FOUND: Contract could not be found with id 00abab'), row.label);
    assert.ok(row.label!.length <= 100 && row.label!.endsWith('…'), row.label);
    assert.ok(!row.label!.includes(commandId), 'the command id is not what the row leads with');
    assert.equal(row.description, `offset 3 · ${commandId}`);
    assert.ok(row.tooltip!.includes(commandId) && row.tooltip!.includes('more words after it'));
  });
});
