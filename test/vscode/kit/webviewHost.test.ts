/**
 * The webview host on the fake VS Code API: the page it writes (CSP with a fresh nonce, no network,
 * the script and style sheet as webview URIs, only dist/webview and the page's media folder readable),
 * reveal-or-create by key, the ready handshake and what is sent again, a restored panel, and every
 * listener and panel disposed.
 */
import { strict as assert } from 'node:assert';
import { WebviewHost, type PagePanel } from '../../../src/vscode/kit/webviewHost';
import { fake, FakeWebviewPanel, Uri } from '../fake/vscode';

type ToPage = { type: 'show'; text: string } | { type: 'note'; text: string };
type FromPage = { type: 'ready' } | { type: 'ask'; what: string };
const PAGE = { viewType: 'test.page', name: 'sample' };
const EXTENSION = Uri.file('/ext');

describe('webview host (fake VS Code API)', () => {
  let host: WebviewHost<ToPage, FromPage, { opened: number }>;
  let received: Array<[string, FromPage]>;
  beforeEach(() => {
    received = [];
    host = new WebviewHost<ToPage, FromPage, { opened: number }>(EXTENSION as never, PAGE, (panel, m) => void received.push([panel.key, m]));
  });
  afterEach(() => host.dispose());

  const open = (key: string, initial?: unknown) => host.revealOrCreate(key, () => ({ title: `Page <${key}>`, initial, data: { opened: Date.now() } }));

  it('writes a page with a strict CSP, a fresh nonce per load, its script and style as webview URIs, and its data in an attribute', () => {
    const a = open('a', { note: '</script><script>alert(1)</script>', quote: '"&' }).panel;
    const b = open('b').panel;
    const html = a.panel.webview.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]{20,})';/.exec(csp)![1];
    // Nothing from the network: only the webview's own resources (its cspSource) and the nonce.
    const source = a.panel.webview.cspSource;
    assert.equal(csp, `default-src 'none'; img-src ${source} data:; style-src ${source}; font-src ${source}; script-src 'nonce-${nonce}';`);
    assert.notEqual(nonce, /script-src 'nonce-([^']+)'/.exec(b.panel.webview.html)![1], 'a nonce per load');
    assert.deepEqual([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), [`<script nonce="${nonce}" src="https://fake.vscode-cdn.net/ext/dist/webview/sample.js">`]);
    assert.ok(html.includes('<link rel="stylesheet" href="https://fake.vscode-cdn.net/ext/media/sample/sample.css">'));
    assert.doesNotMatch(html, /<style|style="/, 'no inline style');
    assert.ok(html.includes('<title>Page a></title>'), 'no markup from the title');
    const attribute = /data-initial="([^"]*)"/.exec(html)![1];
    assert.ok(!attribute.includes('<'), 'nothing in the data can end an element');
    const decoded = attribute.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
    assert.deepEqual(JSON.parse(decoded), { note: '</script><script>alert(1)</script>', quote: '"&' });
    const options = a.panel.webview.options as unknown as { enableScripts: boolean; localResourceRoots: { path: string }[] };
    assert.equal(options.enableScripts, true);
    assert.deepEqual(options.localResourceRoots.map((u) => u.path), ['/ext/dist/webview', '/ext/media/sample']);
  });

  it('reveals the panel of a key that is open, and makes one for a new key', () => {
    const first = open('a');
    const again = open('a');
    assert.deepEqual([first.created, again.created], [true, false]);
    assert.equal(again.panel, first.panel);
    assert.equal((first.panel.panel as unknown as FakeWebviewPanel).revealed, 1);
    open('b');
    assert.deepEqual(fake.state.webviewPanels.map((p) => p.viewType), ['test.page', 'test.page']);
    assert.deepEqual([...host.values()].map((p) => p.key), ['a', 'b']);
  });

  it('sends what the page shows again when it says it is ready, not a passing note; other messages go to the owner', () => {
    const { panel } = open('a');
    const page = panel.panel as unknown as FakeWebviewPanel;
    page.receive({ type: 'ready' });
    assert.deepEqual(page.posted, [], 'nothing shown yet: nothing sent');
    panel.show({ type: 'show', text: 'one' });
    panel.notify({ type: 'note', text: 'passing' });
    panel.show({ type: 'show', text: 'two' });
    page.posted.length = 0;
    page.receive({ type: 'ready' });
    assert.deepEqual(page.posted, [{ type: 'show', text: 'two' }]);
    assert.deepEqual(panel.showing, { type: 'show', text: 'two' });
    page.receive({ type: 'ask', what: 'x' });
    assert.deepEqual(received, [['a', { type: 'ask', what: 'x' }]], 'ready is the host’s own');
  });

  it('adopts a panel VS Code restored: written again with the same options, held by its key, nothing sent', () => {
    const restored = new FakeWebviewPanel('test.page', 'Restored', -1, {});
    const panel = host.restore('r', restored as never, { title: 'Restored', initial: { a: 1 }, data: { opened: 0 } });
    assert.match(restored.webview.html, /dist\/webview\/sample\.js/);
    assert.deepEqual((restored.webview.options as { localResourceRoots: { path: string }[] }).localResourceRoots.map((u) => u.path), ['/ext/dist/webview', '/ext/media/sample']);
    assert.equal(host.get('r'), panel);
    assert.equal(open('r').created, false);
    restored.receive({ type: 'ready' });
    assert.deepEqual(restored.posted, []);
  });

  it('a closed panel leaves the host and its listeners go; disposing the host closes every panel', () => {
    const closed: string[] = [];
    const watch = (p: PagePanel<ToPage, FromPage, { opened: number }>) => p.onDidDispose(() => closed.push(p.key));
    const a = open('a').panel;
    watch(a);
    watch(open('b').panel);
    const page = a.panel as unknown as FakeWebviewPanel;
    page.dispose();
    assert.deepEqual(closed, ['a']);
    assert.equal(host.get('a'), undefined);
    page.receive({ type: 'ask', what: 'late' });
    assert.deepEqual(received, [], 'no listener left on a closed panel');
    assert.equal(open('a').created, true, 'a closed key opens anew');
    host.dispose();
    assert.deepEqual(closed, ['a', 'b']);
    assert.equal(fake.state.webviewPanels.length, 0);
  });
});
