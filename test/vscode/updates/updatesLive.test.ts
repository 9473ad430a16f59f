// The Updates view's live tail on the live-follow helper, against the fake VS Code API and a demo
// participant behind a fault proxy: it follows over the websocket after the loaded history; a socket
// refused with 401 stops it with "Token rejected — Update Token" and Retry (no toast), and Retry goes on
// from where it stopped, missing nothing written meanwhile and repeating nothing.
import { windowPrompts } from '../../../src/vscode/kit/ui';
import assert from 'node:assert/strict';
import type { Logger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { Commands } from '../../../src/vscode/kit/ids';
import { UpdatesFilterStore, UpdatesView } from '../../../src/vscode/updates/updatesView';
import type { ViewNode } from '../../../src/vscode/kit/rowsTree';
import { fake, MemoryMemento } from '../fake/vscode';
import { participantBehindProxy, sendWindow, type SendWindow } from '../files/sendHarness';

describe('Updates view: the live tail (live-follow helper)', function () {
  this.timeout(30_000);
  const suite = participantBehindProxy();
  let window: SendWindow;
  let filters: UpdatesFilterStore;
  let view: UpdatesView;
  let logged: string[];

  beforeEach(async () => {
    window = await sendWindow(suite.proxy.url);
    logged = [];
    const logger: Logger = { trace() {}, debug() {}, info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), error: (m) => logged.push(`error ${m}`) };
    filters = new UpdatesFilterStore(new MemoryMemento() as never);
    view = new UpdatesView(window.manager, filters, logger, new Redactor(), () => 100, windowPrompts);
  });
  afterEach(() => {
    view.stopLiveTail();
    view.dispose();
    filters.dispose();
    window.dispose();
    suite.proxy.clear();
  });

  /** Waits on a state of the view (each check reads it as the tree would), never on time alone. */
  const until = async (what: string, test: () => boolean) => {
    for (let i = 0; i < 600 && !test(); i++) await new Promise((r) => setTimeout(r, 25));
    assert.ok(test(), what);
  };
  const label = (n: ViewNode) => (n.type === 'row' ? n.row.label : n.label);
  const liveOffsets = async () =>
    (await view.getChildren()).filter((n) => n.type === 'row' && n.id.startsWith('updates/live/')).map((n) => (n.type === 'row' ? n.row.offset : undefined));

  it('follows new updates after the loaded history, over the websocket; Stop ends following', async () => {
    const p = suite.participant;
    await view.getChildren();
    const start = p.state.ledgerEnd;
    void view.startLiveTail();
    await until('following over the websocket', () => view.liveTail.status === 'following' && view.liveTail.source?.kind === 'websocket');
    assert.match(view.treeView.description ?? '', /● live \(websocket\)/);
    p.state.appendSynthetic(3, { seed: 41 });
    const expected = p.state.entries.filter((e) => e.offset > start).map((e) => e.offset);
    await until('the new updates received', () => view.liveTail.received >= expected.length);
    assert.deepEqual((await liveOffsets()).sort((a, b) => a! - b!), expected);
    const [status] = await view.getChildren();
    assert.equal(label(status), 'Following new updates');
    view.stopLiveTail();
    assert.equal(view.liveTail.active, false);
  });

  it('a socket refused with 401 stops it with "Token rejected — Update Token" and Retry; Retry goes on from where it stopped, missing nothing', async () => {
    const p = suite.participant;
    await view.getChildren();
    const start = p.state.ledgerEnd;
    suite.proxy.add({ method: 'WS', path: '/v2/updates', fault: { kind: 'refuse-upgrade', status: 401 } });
    void view.startLiveTail();
    await until('stopped by the refusal', () => view.liveTail.status === 'stopped');
    assert.equal(fake.state.messages.length, 0, 'no toast from a tree');
    assert.equal(logged.filter((l) => l.startsWith('warn Live tail stopped: ')).length, 1, logged.join('\n'));
    // Written while the tail is stopped: Retry must not skip them.
    p.state.appendSynthetic(3, { seed: 42 });
    const stopped = await view.getChildren();
    assert.equal(label(stopped[0]), 'Token rejected — Update Token');
    const retry = stopped.find((n) => label(n) === 'Retry');
    assert.equal(retry?.type === 'message' && retry.opts.command?.command, Commands.restartLiveTail);

    void view.retryLiveTail();
    const expected = p.state.entries.filter((e) => e.offset > start).map((e) => e.offset);
    await until(`all ${expected.length} updates after offset ${start}`, () => view.liveTail.received >= expected.length);
    const shown = await liveOffsets();
    assert.deepEqual([...shown].sort((a, b) => a! - b!), expected, 'every update once, none missed while stopped');
    assert.equal(view.liveTail.status, 'following');
  });
});
