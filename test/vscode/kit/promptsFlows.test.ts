// Commands that ask, answered through the port every feature holds (`api.prompts.current`), with every
// feature activated against the fake VS Code API: the Add Connection wizard (its input boxes, its pick,
// Back), Set Token's password box, a graph command's input box. What they ask and what the answers do.
import assert from 'node:assert/strict';
import type { CantonLedgerApi } from '../../../src/features';
import { Commands, Views } from '../../../src/vscode/kit/ids';
import { BACK, type InputOptions, type InputStepOptions } from '../../../src/vscode/kit/prompts';
import { deadUrl } from '../../support/deadPort';
import { commands, fake } from '../fake/vscode';
import { activateAllFeatures } from '../featureHost';
import { ScriptedPrompts } from '../scriptedPrompts';

describe('questions answered through the port the features hold (api.prompts)', () => {
  let api: CantonLedgerApi;
  let features: ReturnType<typeof activateAllFeatures>;
  let prompts: ScriptedPrompts;

  beforeEach(() => {
    features = activateAllFeatures();
    api = features.api;
    prompts = new ScriptedPrompts();
    api.prompts.current = prompts;
  });
  afterEach(() => {
    features.dispose();
    fake.reset();
  });

  it('Add Connection asks step by step (Back goes one step back and keeps the answer), then Set Token asks for the token in a password box and stores it', async () => {
    const url = await deadUrl();
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';
    prompts
      .answerInputStep('Team')
      .answerInputStep(BACK)
      .answerInputStep('Team Ledger')
      .answerInputStep(url)
      .answerPickStep('Paste a JWT')
      .answerInputStep('alice')
      .answerInput(token);
    await commands.executeCommand(Commands.addConnection);

    assert.deepEqual(prompts.unanswered, [], 'every answer was asked for');
    const steps = prompts.asked.filter((a) => a.kind === 'inputStep' || a.kind === 'pickStep').map((a) => (a.options as InputStepOptions).step);
    assert.deepEqual(steps, [1, 2, 1, 2, 3, 4], 'Back asked the name again');
    assert.equal((prompts.asked[2].options as InputStepOptions).value, 'Team', 'the name asked again holds the first answer');
    assert.equal((prompts.asked[3].options as InputStepOptions).validate?.('not a url') !== undefined, true, 'the URL step refuses what is not a URL');
    const profile = api.connections.profiles.all().find((p) => p.name === 'Team Ledger');
    assert.deepEqual(profile && { url: profile.url, auth: profile.auth, userId: profile.userId }, { url, auth: 'jwt', userId: 'alice' });

    const tokenBox = prompts.asked.find((a) => a.kind === 'input')!;
    assert.equal(tokenBox.title, 'Set Token: Team Ledger');
    const options = tokenBox.options as InputOptions;
    assert.equal(options.password, true);
    assert.equal(options.validateInput?.(`Bearer ${token}`), 'A token has no spaces (paste the token only, without "Bearer")');
    assert.equal(await api.secrets.get(profile!.id, 'token'), token);

    // With the token stored it connects, on the Connections view's progress; nothing listens there.
    assert.ok(prompts.busyViews.includes(Views.connections), JSON.stringify(prompts.busyViews));
    const failure = prompts.asked.find((a) => a.kind === 'message');
    assert.match(failure?.title ?? '', /^Connecting to Team Ledger: /);
    assert.deepEqual(fake.state.messages, [], 'nothing went to the window');
  });

  it('Escape in the wizard adds nothing and asks nothing more', async () => {
    prompts.answerInputStep('Team').answerInputStep(undefined);
    await commands.executeCommand(Commands.addConnection);
    assert.deepEqual(prompts.asked.map((a) => a.kind), ['inputStep', 'inputStep']);
    assert.deepEqual(api.connections.profiles.all().filter((p) => p.name === 'Team'), []);
  });

  it('Show Contract Lineage from the palette asks for the contract id, checked as typed, then for a connection', async () => {
    const contractId = `00${'ab'.repeat(33)}`;
    prompts.answerInput(` ${contractId} `);
    await commands.executeCommand(Commands.showContractLineage);
    const [box, noConnection] = prompts.asked;
    assert.equal(box.kind, 'input');
    assert.equal(box.title, 'Show Contract Lineage');
    assert.equal((box.options as InputOptions).validateInput?.('42'), 'A contract id: 00 or 01 and at least 64 hex digits');
    // No connection in this window: the registry's question, through the same port.
    assert.equal(noConnection.kind, 'message');
    assert.match(noConnection.title, /^No active connection/);
    assert.equal(fake.state.webviewPanels.length, 0, 'no panel without a connection');
  });
});
