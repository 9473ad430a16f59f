// Where the Compare Parties result opens: in a view of its own in the panel (below the editors, full
// width, its tab named after it), brought up and focused when a comparison starts — not as one more
// pane at the bottom of the Canton Ledger side bar, under the expanded views, where it was easy to miss.
import assert from 'node:assert/strict';
import { silentLogger } from '../../../src/core/log';
import { Redactor } from '../../../src/core/redact';
import type { DemoParticipant } from '../../../src/participant';
import { focusViewCommand, Views } from '../../../src/vscode/kit/ids';
import { CommandRegistry } from '../../../src/vscode/kit/registry';
import { registerComparePartiesView } from '../../../src/vscode/compare/compareView';
import { start } from '../../participant/helpers';
import { commands, fake } from '../fake/vscode';
import { manifest } from '../featureHost';
import { sendWindow, type SendWindow } from '../files/sendHarness';

interface Contributes {
  viewsContainers: Record<'activitybar' | 'panel', { id: string; title: string }[]>;
  views: Record<string, { id: string; name: string; when?: string }[]>;
}

describe('Compare Parties opens where it is seen', function () {
  this.timeout(30_000);
  const contributes = manifest.contributes as Contributes;

  it('its view is the one view of a panel container named after it (not a pane of the side bar)', () => {
    const [container, views] = Object.entries(contributes.views).find(([, vs]) => vs.some((v) => v.id === Views.compareParties))!;
    const panel = contributes.viewsContainers.panel?.find((c) => c.id === container);
    assert.ok(panel, `the view's container "${container}" is in the panel`);
    assert.equal(panel.title, 'Compare Parties');
    assert.deepEqual(views.map((v) => v.id), [Views.compareParties], 'alone there: the tab is the view');
    assert.ok(!contributes.viewsContainers.activitybar.some((c) => c.id === container));
  });

  describe('a comparison', () => {
    let p: DemoParticipant;
    let window: SendWindow;
    before(async () => {
      p = await start({ port: 0 });
    });
    after(async () => {
      await p.close();
    });
    beforeEach(async () => {
      window = await sendWindow(p.url);
    });
    afterEach(() => window.dispose());

    it('shows and focuses the view before it reads, then fills it', async () => {
      const registry = new CommandRegistry(commands, window.deps.errors, window.deps.targets);
      const { feature, view } = registerComparePartiesView(registry, window.manager, silentLogger, new Redactor(), window.deps.errors, window.prompts());
      try {
        const comparison = await feature.compare({ parties: [p.parties.alice, p.parties.bob] });
        assert.ok(comparison);
        const ids = fake.state.executed.map((e) => (e.id === 'setContext' ? `setContext ${String(e.args[0])}=${String(e.args[1])}` : e.id));
        const focus = ids.indexOf(focusViewCommand(Views.compareParties));
        assert.ok(focus > ids.indexOf('setContext cantonLedger.compareParties.shown=true'), `shown, then focused: ${JSON.stringify(ids)}`);
        assert.equal(view.state.state, 'ready');
      } finally {
        view.dispose();
        registry.dispose();
      }
    });
  });
});
