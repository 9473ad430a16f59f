// The paged-view base that Updates and Active Contracts share: first page, Load more, Refresh keeping
// what was loaded, a reset dropping a load it overtook, failures as rows with Retry. A scripted pager
// (the core's OnDemandPages over pages a test answers one by one) stands for the participant.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../src/core/connections';
import type { ConnectionState, LedgerConnection } from '../../../src/core/ledger/connection';
import { HttpError } from '../../../src/core/errors';
import type { LedgerChange } from '../../../src/core/ledger/state';
import type { Logger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { PagedView, type PagedViewConnections } from '../../../src/vscode/kit/pagedView';
import type { ViewId } from '../../../src/vscode/kit/ids';
import { MessageNode, uniqueNodes, type ViewNode } from '../../../src/vscode/kit/rowsTree';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { nextRequest, ScriptedPages, type PageRequest } from '../../support/scriptedPages';
import { fake } from '../fake/vscode';

const CONNECTED: ConnectionState = { state: 'connected', info: { version: '3.4.0', synchronizers: [], parties: [], partiesFromRights: false }, at: new Date() };

/** A connection as far as a paged view looks at it: its profile and its state (which a test sets). */
function fakeConnection(id: string, name: string, state: ConnectionState = CONNECTED): LedgerConnection & { state: ConnectionState } {
  return { id, profile: { id, name, url: 'http://localhost:7575', auth: 'none' } as ConnectionProfile, state } as LedgerConnection & { state: ConnectionState };
}

class FakeConnections implements PagedViewConnections {
  p1 = fakeConnection('p1', 'Local');
  /** The active connection (what `active()` answers). */
  activeOne: LedgerConnection | undefined = this.p1;
  /** What stands for a connection now: a reconnect makes a new object in its place. */
  readonly successors = new Map<LedgerConnection, LedgerConnection>();
  readonly changed = new vscode.EventEmitter<LedgerConnection | undefined>();
  readonly ledgerChanged = new vscode.EventEmitter<{ connection: LedgerConnection; change: LedgerChange }>();
  readonly onDidChange = this.changed.event;
  readonly onDidChangeLedger = this.ledgerChanged.event;
  active(): LedgerConnection | undefined {
    return this.activeOne;
  }
  current(connection: LedgerConnection): LedgerConnection | undefined {
    return this.successors.get(connection) ?? connection;
  }
}

/** The smallest paged view: one row per item, the filter a label the test sets. */
class TestView extends PagedView<ScriptedPages, FakeConnections> {
  readonly requests: PageRequest[] = [];
  readonly filterChanges: vscode.EventEmitter<LedgerConnection>;
  filterLabel = 'first filter';
  opened: string[] = [];

  constructor(connections: FakeConnections, logger: Logger) {
    const filterChanges = new vscode.EventEmitter<LedgerConnection>();
    super({ viewId: 'test.paged' as ViewId, idPrefix: 'paged', name: 'Test view', commands: { loadMore: 'test.loadMore', refresh: 'test.refresh' }, onDidChangeFilter: filterChanges.event, prompts: windowPrompts }, connections, logger, new Redactor());
    this.filterChanges = filterChanges;
  }
  protected async openPager(connection: LedgerConnection): Promise<ScriptedPages> {
    this.opened.push(`${connection.id}: ${this.filterLabel}`);
    return new ScriptedPages(this.filterLabel, this.requests);
  }
  protected showLoaded(pager: ScriptedPages): void {
    this.itemNodes = uniqueNodes(pager.items.map((item) => ({ key: item, kind: 'detail' as const, label: `${item} (${pager.label})` })), 'paged');
  }
  protected emptyNode(): MessageNode {
    return new MessageNode('paged/empty', 'Nothing here');
  }
  protected moreDescription(pager: ScriptedPages): string {
    return `${pager.loadedCount} loaded`;
  }
  /** What the view holds as loaded right now (without asking it to load). */
  get shownItems(): string[] {
    return labels(this.itemNodes);
  }
  protected updateDescription(): void {
    this.treeView.description = this.pager ? `${this.pager.loadedCount} items` : undefined;
  }
  /** What the base told the view: its own connection moved (`mine`), another one did, or its ledger moved. */
  readonly told: string[] = [];
  protected override connectionChanged(moved: LedgerConnection | undefined): void {
    this.told.push(moved === undefined ? 'profiles' : moved === this.connection ? `mine ${moved.id}` : `other ${moved.id}`);
  }
  protected override ledgerMoved(): void {
    this.told.push('ledger');
  }
  /** The connection the view shows. */
  get shown(): LedgerConnection | undefined {
    return this.connection;
  }

  /** The next page asked for (after the view's promise chain has run far enough to ask). */
  nextRequest(): Promise<PageRequest> {
    return nextRequest(this.requests);
  }
}

const labels = (nodes: ViewNode[]) => nodes.map((n) => (n.type === 'row' ? n.row.label : n.label));
const commandOf = (nodes: ViewNode[], label: string) => nodes.find((n): n is MessageNode => n.type === 'message' && n.label === label)?.opts.command?.command;

describe('PagedView', () => {
  let connections: FakeConnections;
  let view: TestView;
  let warnings: string[];

  beforeEach(() => {
    fake.reset();
    connections = new FakeConnections();
    warnings = [];
    view = new TestView(connections, { trace() {}, debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} });
  });
  afterEach(() => view.dispose());

  it('reads the first page when first shown, then appends each page that Load more reads, until the last', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).answer(['a', 'b'], 2);
    assert.deepEqual(labels(await shown), ['a (first filter)', 'b (first filter)', 'Load more']);
    assert.equal(commandOf(await view.getChildren(), 'Load more'), 'test.loadMore');

    const more = view.loadMore();
    assert.deepEqual(labels(await view.getChildren()).slice(-1), ['Loading…'], 'the row says a page is loading');
    const request = await view.nextRequest();
    assert.equal(request.cursor, 2, 'the next page from where the first ended');
    request.answer(['c']);
    await more;
    assert.deepEqual(labels(await view.getChildren()), ['a (first filter)', 'b (first filter)', 'c (first filter)'], 'no Load more after the last page');
    assert.equal(view.treeView.description, '3 items');
    assert.deepEqual(view.opened, ['p1: first filter'], 'one pager for all the pages');
  });

  it('shows that an empty last page holds nothing', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).answer([]);
    assert.deepEqual(labels(await shown), ['Nothing here']);
  });

  it('drops a first page that a filter change overtook, and shows the page read with the new filter', async () => {
    const stale = view.getChildren();
    const old = await view.nextRequest();
    view.filterLabel = 'second filter';
    view.filterChanges.fire(connections.p1);
    assert.equal(old.signal?.aborted, true, 'the overtaken read is aborted');
    const fresh = view.getChildren();
    const current = await view.nextRequest();
    current.answer(['new'], 1);
    old.answer(['old'], 1);
    await Promise.all([stale, fresh]);
    assert.deepEqual(labels(await view.getChildren()), ['new (second filter)', 'Load more']);
    assert.deepEqual(view.opened, ['p1: first filter', 'p1: second filter']);
  });

  it('drops a Load more page that a refresh overtook', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).answer(['a'], 1);
    await shown;
    const more = view.loadMore();
    const stale = await view.nextRequest();
    const refreshed = view.refresh();
    stale.answer(['stale']);
    await more;
    assert.deepEqual(view.shownItems, [], 'the stale page did not land while the refresh reads');
    const first = await view.nextRequest();
    assert.equal(first.cursor, undefined, 'a refresh reads from the first page');
    first.answer(['a2'], 1);
    await refreshed;
    assert.deepEqual(labels(await view.getChildren()), ['a2 (first filter)', 'Load more']);
  });

  it('reads as many items again on Refresh as were loaded', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).answer(['a'], 1);
    await shown;
    const more = view.loadMore();
    (await view.nextRequest()).answer(['b'], 2);
    await more;
    const refreshed = view.refresh();
    (await view.nextRequest()).answer(['a'], 1);
    const second = await view.nextRequest();
    assert.equal(second.cursor, 1, 'pages until two items are loaded again');
    second.answer(['b', 'c'], 3);
    await refreshed;
    assert.deepEqual(labels(await view.getChildren()), ['a (first filter)', 'b (first filter)', 'c (first filter)', 'Load more']);
  });

  it('shows a failed first page as an error row with a Retry that reads the first page again', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).fail(new HttpError(503, 'Service Unavailable', 'text/plain', { method: 'POST', path: '/v2/x' }));
    const nodes = await shown;
    assert.ok(labels(nodes).includes('Retry'), labels(nodes).join(', '));
    assert.equal(commandOf(nodes, 'Retry'), 'test.refresh', 'nothing loaded yet: Retry reads the first page');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /^Test view: /);
    assert.deepEqual(labels(await view.getChildren()), labels(nodes), 'the failure stays until Retry: no read per repaint');
    assert.equal(view.requests.length, 0);

    const retried = view.refresh();
    (await view.nextRequest()).answer(['a']);
    await retried;
    assert.deepEqual(labels(await view.getChildren()), ['a (first filter)']);
  });

  it('keeps what is loaded when Load more fails, with a Retry that loads more', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).answer(['a'], 1);
    await shown;
    const more = view.loadMore();
    (await view.nextRequest()).fail(new Error('connection reset'));
    await more;
    const nodes = await view.getChildren();
    assert.equal(labels(nodes)[0], 'a (first filter)');
    assert.equal(commandOf(nodes, 'Retry'), 'test.loadMore');
    assert.match(warnings[0], /^Test view, loading more: .*connection reset/);

    const retried = view.loadMore();
    const request = await view.nextRequest();
    assert.equal(request.cursor, 1, 'Retry asks for the page that failed');
    request.answer(['b']);
    await retried;
    assert.deepEqual(labels(await view.getChildren()), ['a (first filter)', 'b (first filter)']);
  });

  it('reads nothing from a connection that is not connected, and starts over on another connection', async () => {
    connections.p1.state = { state: 'disconnected' };
    assert.deepEqual(labels(await view.getChildren()), ['Connect to Local']);
    await view.refresh();
    assert.equal(view.requests.length, 0, 'Refresh does not read from a connection the user did not connect');

    connections.p1.state = CONNECTED;
    const shown = view.getChildren();
    (await view.nextRequest()).answer(['a']);
    await shown;
    connections.activeOne = undefined;
    connections.changed.fire(undefined);
    assert.deepEqual(labels(await view.getChildren()), ['No active connection', 'Start the demo participant']);
  });
  it('follows its own connection: another one moving changes nothing; the one a reconnect made in its place keeps the pages; another active connection starts over', async () => {
    const shown = view.getChildren();
    (await view.nextRequest()).answer(['a'], 1);
    await shown;
    const p2 = fakeConnection('p2', 'Other');
    connections.changed.fire(p2);
    connections.ledgerChanged.fire({ connection: p2, change: { ledgerEnd: { previous: 1, current: 2 } } });
    view.filterChanges.fire(p2);
    assert.deepEqual(view.told, ['other p2'], "another connection's state is not the view's; its ledger and filter are not looked at");
    assert.deepEqual(view.shownItems, ['a (first filter)']);

    // A reconnect (a new token) makes a new object for the same participant: the view takes it and keeps its pages.
    const again = fakeConnection('p1', 'Local');
    connections.successors.set(connections.p1, again);
    connections.activeOne = again;
    connections.changed.fire(connections.p1);
    assert.equal(view.shown, again);
    assert.deepEqual(view.told, ['other p2', 'mine p1'], 'told its own connection moved, as the new object');
    assert.deepEqual(labels(await view.getChildren()), ['a (first filter)', 'Load more'], 'nothing read again');
    connections.ledgerChanged.fire({ connection: again, change: { ledgerEnd: { previous: 1, current: 2 } } });
    assert.deepEqual(view.told.at(-1), 'ledger', "the new object's ledger is the view's");
    assert.equal(view.requests.length, 0);

    // Another participant becomes active: its own pages, from the first.
    connections.activeOne = p2;
    connections.changed.fire(undefined);
    assert.equal(view.shown, p2);
    assert.deepEqual(view.shownItems, []);
    const other = view.getChildren();
    (await view.nextRequest()).answer(['b']);
    assert.deepEqual(labels(await other), ['b (first filter)']);
    assert.deepEqual(view.opened, ['p1: first filter', 'p2: first filter']);
  });
});
