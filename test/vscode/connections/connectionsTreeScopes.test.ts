// The Connections view's tooltip names the token's scope, and against a participant whose own
// description lists area scopes (Canton 3.8; here a demo participant playing 3.8 that serves a
// description derived from the 3.6 spec) the API areas that scope opens.
import assert from 'node:assert/strict';
import type { DemoParticipant } from '../../../src/participant';
import { ConnectionsTreeProvider, type ConnectionNode } from '../../../src/vscode/connections/connectionsTree';
import { start } from '../../participant/helpers';
import { requireSpec } from '../../support/spec';
import { derive38Spec } from '../../support/spec38';
import { sendWindow, type SendWindow } from '../files/sendHarness';

const SECRET = 'a-secret-of-at-least-32-bytes-0123456789';
/** What a connect reads, by area: the version, the ledger end and synchronizers, parties, the user and its rights, the packages. */
const CONNECT_AREAS = ['version', 'state', 'parties', 'authenticated-user', 'users', 'packages'];

describe('Connections view tooltip: the token\'s scope and API areas (fake VS Code API)', function () {
  this.timeout(30_000);
  let p: DemoParticipant | undefined;
  let window: SendWindow | undefined;
  afterEach(async () => {
    window?.dispose();
    await p?.close();
    window = undefined;
    p = undefined;
  });

  const tooltipOf = (w: SendWindow): string => {
    const tree = new ConnectionsTreeProvider(w.manager);
    try {
      const [row] = tree.getChildren() as ConnectionNode[];
      const tooltip = tree.getTreeItem(row).tooltip as { value: string };
      return tooltip.value;
    } finally {
      tree.dispose();
    }
  };

  it('names the areas a scoped token opens, as the participant\'s description lists them', async function () {
    requireSpec(this, 'main-3.6');
    p = await start({ apiVersion: '3.8', auth: { secret: SECRET }, openapi: { text: derive38Spec().text } });
    const token = await p.mintToken('demo-admin', { areas: CONNECT_AREAS });
    window = await sendWindow(p.url, { token });
    assert.equal(window.connection.state.state, 'connected', JSON.stringify(window.connection.state));
    // The description is read beside the connect, not before it answers.
    await window.connection.whenCompatibilityChecked();
    assert.ok(window.connection.client.compatibility?.scopes, 'the description read at connect lists scopes');
    const tooltip = tooltipOf(window);
    assert.match(tooltip, /Token: sub `demo-admin`/);
    assert.match(tooltip, /API areas authenticated\\-user, packages, parties, state, users, version/);
    assert.match(tooltip, /scope daml\\_ledger\\_api\\\.version/);
  });

  it('a token without scope against a participant that lists none (3.6): no scope line at all', async () => {
    p = await start({ apiVersion: '3.6', auth: { secret: SECRET } });
    window = await sendWindow(p.url, { token: await p.mintToken('demo-admin') });
    const tooltip = tooltipOf(window);
    assert.match(tooltip, /Token: sub `demo-admin`/);
    assert.doesNotMatch(tooltip, /scope|API area/);
  });
});
