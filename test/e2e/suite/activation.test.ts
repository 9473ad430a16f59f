import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { cachedBundles } from '../../../src/vscode/bundleLoader';
import { EXTENSION_ID, extension, workspaceDir } from './helpers';

interface ManifestCommand {
  command: string;
  title: string;
}

describe('activation', () => {
  it(`the extension ${EXTENSION_ID} is present`, () => {
    const ext = extension();
    assert.strictEqual(`${ext.packageJSON.publisher}.${ext.packageJSON.name}`, EXTENSION_ID);
  });

  it('activates', async function () {
    this.timeout(60000);
    const ext = extension();
    await ext.activate();
    assert.ok(ext.isActive, 'isActive is false after activate()');
  });

  // This suite runs first: no Canton file, view or command has been used in this window yet.
  // The features (dist/features.js) load on the first use, not at activation.
  const featuresLoaded = () => path.join(extension().extensionPath, 'dist', 'features.js') in require.cache;

  it('has not loaded its features while no Canton file, view or command is in use, also with an unrelated JSON file open', async () => {
    await extension().activate();
    const other = await vscode.workspace.openTextDocument(path.join(workspaceDir(), 'other.json'));
    await vscode.window.showTextDocument(other);
    assert.strictEqual(other.languageId, 'json');
    assert.strictEqual(featuresLoaded(), false, 'dist/features.js is loaded');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('a command run before anything else loads the features and runs (its stand-in hands over)', async () => {
    assert.strictEqual(featuresLoaded(), false);
    await vscode.commands.executeCommand('cantonLedger.showLog');
    assert.strictEqual(featuresLoaded(), true);
    // The real command now answers under the same id; running it again loads nothing more.
    await vscode.commands.executeCommand('cantonLedger.showLog');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  it('the bundles that first use loaded leave their V8 code cache in the global storage, for the next window to compile with', async function () {
    this.timeout(30000);
    const cacheDir = path.join(process.env.E2E_RUN_DIR!, 'host', 'ud', 'User', 'globalStorage', EXTENSION_ID, 'code-cache');
    const dist = path.join(extension().extensionPath, 'dist') + path.sep;
    const loaded = Object.keys(require.cache).filter((f) => f.startsWith(dist) && f !== `${dist}extension.js`).map((f) => path.basename(f));
    assert.ok(loaded.includes('features.js'), `loaded: ${loaded.join(', ')}`);
    // Written a moment after the bundles load (src/vscode/bundleLoader.ts).
    while (!loaded.every((b) => cachedBundles(cacheDir).includes(b))) await new Promise((resolve) => setTimeout(resolve, 100));
  });

  it('registers every command contributed in package.json', async () => {
    const ext = extension();
    await ext.activate();
    const contributed: ManifestCommand[] = ext.packageJSON.contributes?.commands ?? [];
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c.command)).map((c) => `${c.command} ("${c.title}")`);
    assert.deepStrictEqual(missing, [], `contributed but not registered after activation: ${missing.join(', ')}`);
  });

  it('VS Code registered the contributed view containers and views', async () => {
    const ext = extension();
    const registered = new Set(await vscode.commands.getCommands(true));
    const containers: { id: string }[] = ext.packageJSON.contributes?.viewsContainers?.activitybar ?? [];
    const views: Record<string, { id: string }[]> = ext.packageJSON.contributes?.views ?? {};
    const expected = [
      ...containers.map((c) => `workbench.view.extension.${c.id}`),
      ...Object.values(views).flat().map((v) => `${v.id}.focus`),
    ];
    const missing = expected.filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, [], `no workbench command for: ${missing.join(', ')}`);
  });
});
