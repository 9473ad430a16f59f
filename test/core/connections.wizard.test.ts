import assert from 'node:assert/strict';
import { connectionWizardSteps, wizardStepCounter } from '../../src/core/connections';

describe('Add Connection wizard', () => {
  it('counts the steps of each auth kind', () => {
    const total = (auth: Parameters<typeof connectionWizardSteps>[0]) => connectionWizardSteps(auth).steps.length;
    assert.equal(total('none'), 4);
    assert.equal(total('jwt'), 4);
    // Both token forms ask for the participant id: it is the token's audience.
    assert.deepEqual(connectionWizardSteps('sandbox-secret').steps.slice(4), ['tokenForm', 'participantId']);
    assert.equal(total('oauth2'), 8);
  });

  it('shows k/N once the path is known, k alone before the auth kind is chosen', () => {
    const unknown = connectionWizardSteps(undefined);
    assert.deepEqual(wizardStepCounter('name', unknown), { step: 1 });
    assert.deepEqual(wizardStepCounter('auth', unknown), { step: 3 });
    const oauth = connectionWizardSteps('oauth2');
    assert.deepEqual(wizardStepCounter('userId', oauth), { step: 4, totalSteps: 8 });
    assert.deepEqual(wizardStepCounter('audience', oauth), { step: 8, totalSteps: 8 });
    // Never "4/4" followed by more questions: the last step of each path is N/N.
    for (const auth of ['none', 'jwt', 'sandbox-secret', 'oauth2'] as const) {
      const path = connectionWizardSteps(auth);
      const last = path.steps[path.steps.length - 1];
      assert.deepEqual(wizardStepCounter(last, path), { step: path.steps.length, totalSteps: path.steps.length });
    }
  });
});
