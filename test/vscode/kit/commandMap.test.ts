// The one command map against package.json, both ways, and against what the features register.
import assert from 'node:assert/strict';
import { Commands, Views } from '../../../src/vscode/kit/ids';
import { fake } from '../fake/vscode';
import { activateAllFeaturesForSuite, manifest } from '../featureHost';

const contributes = manifest.contributes as {
  commands: { command: string; title: string }[];
  menus: Record<string, { command?: string; submenu?: string }[]>;
  keybindings?: { command: string }[];
  views: Record<string, { id: string }[]>;
  viewsWelcome?: { view: string; contents: string }[];
  walkthroughs?: unknown[];
};
const mapped = new Set<string>(Object.values(Commands));
const contributed = contributes.commands.map((c) => c.command);
const viewIds = new Set<string>(Object.values(contributes.views).flat().map((v) => v.id));
/** Commands VS Code itself provides that the manifest may point at: a view's focus, and its own. */
const builtIn = (id: string) => [...viewIds].some((v) => id === `${v}.focus`) || id.startsWith('workbench.');
/** `command:<id>` links in Markdown (view welcome, walkthroughs), without their arguments. */
const linked = (text: string) => [...text.matchAll(/command:([\w.-]+)/g)].map((m) => m[1]);

describe('the command map and package.json', () => {
  it('every contributed command is in the map, once', () => {
    assert.deepEqual(contributed.filter((id) => !mapped.has(id)), []);
    assert.equal(new Set(contributed).size, contributed.length, 'a command is contributed twice');
  });

  it('every command of the map is contributed, and no two names share an id', () => {
    assert.deepEqual([...mapped].filter((id) => !contributed.includes(id)), []);
    assert.equal(mapped.size, Object.keys(Commands).length, 'two names of the map share an id');
  });

  it('every view of the map is contributed and every contributed view is in it', () => {
    assert.deepEqual([...viewIds].sort(), Object.values(Views).sort());
  });

  it('every command a menu, keybinding, view welcome or walkthrough refers to exists', () => {
    const references = [
      ...Object.entries(contributes.menus).flatMap(([menu, items]) => items.flatMap((i) => (i.command ? [{ where: menu, id: i.command }] : []))),
      ...(contributes.keybindings ?? []).map((k) => ({ where: 'keybindings', id: k.command })),
      ...(contributes.viewsWelcome ?? []).flatMap((w) => linked(w.contents).map((id) => ({ where: `viewsWelcome ${w.view}`, id }))),
      ...linked(JSON.stringify(contributes.walkthroughs ?? [])).map((id) => ({ where: 'walkthroughs', id })),
    ];
    assert.ok(references.length > 60, `the manifest was read (${references.length} references)`);
    assert.deepEqual(references.filter((r) => !mapped.has(r.id) && !builtIn(r.id)), []);
  });

  it('the check itself finds a missing command', () => {
    assert.ok(!mapped.has('cantonLedger.updates.nonesuch'));
    assert.deepEqual(linked('[Go](command:cantonLedger.demo.start?%22x%22) and [Other](command:cantonLedger.x.y)'), ['cantonLedger.demo.start', 'cantonLedger.x.y']);
  });
});

describe('the features register exactly the contributed commands', () => {
  const features = activateAllFeaturesForSuite();

  it('registers every contributed command and nothing else under the extension\'s name', () => {
    const registered = [...fake.state.commands.keys()].filter((id) => id.startsWith('cantonLedger.'));
    assert.deepEqual(contributed.filter((id) => !registered.includes(id)), [], 'contributed but not registered');
    assert.deepEqual(registered.filter((id) => !contributed.includes(id)), [], 'registered but not contributed');
  });

  it('disposing what activation registered unregisters every command and view', () => {
    assert.ok(fake.state.treeViews.size > 0);
    features.dispose();
    assert.deepEqual([...fake.state.commands.keys()], []);
    assert.deepEqual([...fake.state.treeViews.keys()], []);
  });
});
