// The pageable piece under a node that is not the view's root (as the PQS view's templates own their
// contracts): each group row owns a list; its first page is read when the group is first expanded, Load
// more appends, a failure is rows under the group with Retry, a reset drops a read it overtook and
// cancels it, and a cancelled read is not shown as a failure. A scripted pager (the core's
// OnDemandPages over pages a test answers one by one) stands for the participant or the database.
import assert from 'node:assert/strict';
import { CancelledError, NetworkError } from '../../../src/core/errors';
import type { Logger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import { recordFailure } from '../../../src/vscode/kit/prompts';
import { loadMoreRow, Pageable } from '../../../src/vscode/kit/pageable';
import { errorNodes, MessageNode, statusNodes, uniqueNodes, type ViewNode } from '../../../src/vscode/kit/rowsTree';
import { nextRequest, ScriptedPages, type PageRequest } from '../../support/scriptedPages';
import { fake } from '../fake/vscode';
import { windowPrompts } from '../../../src/vscode/kit/ui';

/** A view whose root rows are groups; each group's children are its own paged list. */
class GroupsView {
  readonly requests: PageRequest[] = [];
  readonly lists = new Map<string, Pageable<ScriptedPages>>();
  readonly groups = ['alpha', 'beta'].map((name) => new MessageNode(`group/${name}`, name));
  repaints = 0;

  constructor(private readonly logger: Logger) {}

  listOf(name: string): Pageable<ScriptedPages> {
    let list = this.lists.get(name);
    if (!list) {
      list = new Pageable({
        name: `Group ${name}`,
        progress: { viewId: 'test.groups', prompts: windowPrompts },
        open: async () => new ScriptedPages(name, this.requests),
        changed: () => this.repaints++,
        record: (context, err) => recordFailure(this.logger, new Redactor(), context, err),
      });
      this.lists.set(name, list);
    }
    return list;
  }

  async getChildren(node?: MessageNode): Promise<ViewNode[]> {
    if (!node) return this.groups;
    const name = node.label;
    const list = this.listOf(name);
    await list.firstPage();
    const items = uniqueNodes((list.pager?.items ?? []).map((item) => ({ key: item, kind: 'detail' as const, label: item })), node.id, node);
    const retry = (what: 'first' | 'more') => ({ command: what === 'more' ? 'test.loadMore' : 'test.retry', title: 'Retry', arguments: [name] });
    return [
      ...items,
      ...list.rows<ViewNode>({
        shown: items.length,
        empty: () => [new MessageNode(`${node.id}/empty`, 'Nothing here', {}, node)],
        error: (err, what) => errorNodes(node.id, err, { retry: retry(what), parent: node, redact: (s) => s }),
        more: (pager, loading) => statusNodes([loadMoreRow(node.id, { loading, description: `${pager.loadedCount} loaded`, command: { command: 'test.loadMore', title: 'Load More', arguments: [name] } })], node),
      }),
    ];
  }

  nextRequest(): Promise<PageRequest> {
    return nextRequest(this.requests);
  }

  dispose(): void {
    for (const list of this.lists.values()) list.dispose();
  }
}

const labels = (nodes: ViewNode[]) => nodes.map((n) => (n.type === 'row' ? n.row.label : n.label));
const find = (nodes: ViewNode[], label: string) => nodes.find((n): n is MessageNode => n.type === 'message' && n.label === label);

describe('Pageable under a node (not the root)', () => {
  let view: GroupsView;
  let logged: string[];

  beforeEach(() => {
    fake.reset();
    logged = [];
    view = new GroupsView({ trace() {}, debug() {}, info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`), error: (m) => logged.push(`error ${m}`) });
  });
  afterEach(() => view.dispose());

  it("reads a group's first page when the group is first expanded, only that group's, then each page that Load more reads", async () => {
    const [alpha] = await view.getChildren();
    assert.equal(view.requests.length, 0, 'nothing read before a group is expanded');
    const shown = view.getChildren(alpha as MessageNode);
    const first = await view.nextRequest();
    assert.deepEqual([first.label, first.cursor], ['alpha', undefined]);
    first.answer(['a1', 'a2'], 2);
    const children = await shown;
    assert.deepEqual(labels(children), ['a1', 'a2', 'Load more']);
    assert.ok(children.every((n) => n.parent === alpha), 'the rows are under the group, for reveal');
    assert.ok(children.every((n) => n.id.startsWith('group/alpha/')), children.map((n) => n.id).join(', '));
    assert.equal(fake.state.progressTitles.length, 1, "the page read under the view's progress");

    const more = view.listOf('alpha').loadMore();
    assert.deepEqual(labels(await view.getChildren(alpha as MessageNode)).slice(-1), ['Loading…']);
    const second = await view.nextRequest();
    assert.equal(second.cursor, 2, 'the next page from where the first ended');
    second.answer(['a3']);
    await more;
    assert.deepEqual(labels(await view.getChildren(alpha as MessageNode)), ['a1', 'a2', 'a3'], 'no Load more after the last page');
    assert.equal(view.lists.has('beta'), false, 'the other group read nothing');
  });

  it('shows a failed first page as rows under the group with a Retry that reads the first page again, and logs it once', async () => {
    const [alpha] = (await view.getChildren()) as MessageNode[];
    const shown = view.getChildren(alpha);
    (await view.nextRequest()).fail(new NetworkError('Could not reach the participant (ECONNREFUSED)', 'ECONNREFUSED', false));
    const nodes = await shown;
    const error = nodes[0] as MessageNode;
    assert.equal(error.opts.icon, 'error');
    assert.equal(error.opts.iconColor, 'list.errorForeground');
    assert.equal(error.parent, alpha);
    assert.equal(find(nodes, 'Retry')?.opts.command?.command, 'test.retry', 'nothing loaded yet: Retry reads the first page');
    assert.deepEqual(labels(await view.getChildren(alpha)), labels(nodes), 'the failure stays until Retry: no read per repaint');
    assert.equal(view.requests.length, 0);
    assert.deepEqual(logged.filter((l) => l.startsWith('warn')).length, 1);
    assert.match(logged[0], /^warn Group alpha: Could not reach the participant \(ECONNREFUSED\)\. /);

    const retried = view.listOf('alpha').retry();
    const again = await view.nextRequest();
    assert.equal(again.cursor, undefined);
    again.answer(['a1']);
    await retried;
    assert.deepEqual(labels(await view.getChildren(alpha)), ['a1']);
  });

  it('keeps what is loaded when Load more fails; its Retry loads the page that failed', async () => {
    const [alpha] = (await view.getChildren()) as MessageNode[];
    const shown = view.getChildren(alpha);
    (await view.nextRequest()).answer(['a1'], 1);
    await shown;
    const more = view.listOf('alpha').loadMore();
    (await view.nextRequest()).fail(new Error('connection reset'));
    await more;
    const nodes = await view.getChildren(alpha);
    assert.equal(labels(nodes)[0], 'a1');
    assert.equal(find(nodes, 'Retry')?.opts.command?.command, 'test.loadMore');
    assert.match(logged.find((l) => l.startsWith('warn'))!, /^warn Group alpha, loading more: .*connection reset/);
    const retried = view.listOf('alpha').retry();
    const request = await view.nextRequest();
    assert.equal(request.cursor, 1);
    request.answer(['a2']);
    await retried;
    assert.deepEqual(labels(await view.getChildren(alpha)), ['a1', 'a2']);
  });

  it('a reset cancels the read in progress and drops its page; the group then reads its first page again', async () => {
    const [alpha] = (await view.getChildren()) as MessageNode[];
    const stale = view.getChildren(alpha);
    const old = await view.nextRequest();
    view.listOf('alpha').reset();
    assert.equal(old.signal?.aborted, true, 'Cancel: the overtaken read is aborted');
    const fresh = view.getChildren(alpha);
    const current = await view.nextRequest();
    current.answer(['new']);
    old.answer(['old'], 1);
    await Promise.all([stale, fresh]);
    assert.deepEqual(labels(await view.getChildren(alpha)), ['new']);
  });

  it('a cancelled read is not a failure: a neutral "Cancelled" row with Retry, nothing logged as a warning', async () => {
    const [alpha] = (await view.getChildren()) as MessageNode[];
    const shown = view.getChildren(alpha);
    (await view.nextRequest()).fail(new CancelledError());
    const nodes = await shown;
    assert.deepEqual(labels(nodes), ['Cancelled', 'Retry']);
    const cancelled = nodes[0] as MessageNode;
    assert.notEqual(cancelled.opts.icon, 'error');
    assert.equal(cancelled.opts.iconColor, undefined, 'not coloured as a failure');
    assert.notEqual(cancelled.opts.contextValue, 'cantonLedger:error');
    assert.deepEqual(logged, []);
  });

  it('dispose cancels the reads of every group', async () => {
    const [alpha, beta] = (await view.getChildren()) as MessageNode[];
    void view.getChildren(alpha);
    void view.getChildren(beta);
    const a = await view.nextRequest();
    const b = await view.nextRequest();
    view.dispose();
    assert.deepEqual([a.signal?.aborted, b.signal?.aborted], [true, true]);
  });

  it('shows that a group whose only page is empty holds nothing', async () => {
    const [, beta] = (await view.getChildren()) as MessageNode[];
    const shown = view.getChildren(beta);
    (await view.nextRequest()).answer([]);
    assert.deepEqual(labels(await shown), ['Nothing here']);
  });
});
