// The connection profiles of a window: the user's own, those from settings (workspace settings only when
// the workspace is trusted: a URL from a cloned repository is untrusted), and the demo.
import assert from 'node:assert/strict';
import { ProfileStore } from '../../../src/vscode/connections/profiles';
import { fake, MemoryMemento } from '../fake/vscode';

describe('ProfileStore', () => {
  let store: ProfileStore;
  let changes: number;
  beforeEach(() => {
    fake.reset();
    store = new ProfileStore(new MemoryMemento() as never);
    changes = 0;
    store.onDidChange(() => changes++);
  });
  afterEach(() => store.dispose());

  it('keeps the user own profiles and makes the only one active', async () => {
    await store.save({ id: 'p1', name: 'Local', url: 'http://localhost:7575/', auth: 'none', source: 'user' });
    assert.deepEqual(store.all().map((p) => [p.id, p.url, store.isEditable(p)]), [['p1', 'http://localhost:7575', true]]);
    assert.equal(store.active()?.id, 'p1');
    await store.save({ id: 'p2', name: 'Other', url: 'http://localhost:7576', auth: 'none', source: 'user' });
    assert.equal(store.active(), undefined, 'two profiles and none chosen: no active one');
    await store.setActive('p2');
    assert.equal(store.active()?.id, 'p2');
    await store.remove('p2');
    assert.equal(store.activeId(), undefined, 'removing the active profile clears the choice');
    assert.equal(store.active()?.id, 'p1');
    assert.ok(changes >= 4);
  });

  it('takes workspace-settings profiles only once the workspace is trusted, and says when that changes', () => {
    fake.state.isTrusted = false;
    fake.setSetting('cantonLedger.connections', [{ name: 'Repo', url: 'https://ledger.example.com' }], 'workspace');
    fake.setSetting('cantonLedger.connections', [{ name: 'Mine', url: 'http://localhost:7575' }], 'user');
    assert.deepEqual(store.all().map((p) => [p.name, p.source]), [['Mine', 'user']]);
    const before = changes;
    fake.grantTrust();
    assert.equal(changes, before + 1);
    assert.deepEqual(store.all().map((p) => [p.name, p.source, store.isEditable(p)]), [
      ['Mine', 'user', false],
      ['Repo', 'workspace', false],
    ]);
  });

  it('ignores a settings profile whose URL is not a participant URL', () => {
    fake.setSetting('cantonLedger.connections', [{ name: 'Bad', url: 'ftp://x' }, { name: 'Good', url: 'http://127.0.0.1:7576' }]);
    assert.deepEqual(store.all().map((p) => p.name), ['Good']);
  });

  it('stops listening when disposed', () => {
    store.dispose();
    const before = changes;
    fake.setSetting('cantonLedger.connections', []);
    fake.grantTrust();
    assert.equal(changes, before);
  });
});
