import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { connectionWizardSteps, wizardStepCounter } from '../../src/core/connections';
import { sandboxTokenMinter } from '../../src/core/auth/sandboxTokens';
import { PARTICIPANT_AUDIENCE_PREFIX } from '../../src/core/auth/jwt';

describe('Add Connection wizard', () => {
  it('counts the steps of each auth kind', () => {
    const total = (auth: Parameters<typeof connectionWizardSteps>[0], form?: 'audience' | 'scope') => connectionWizardSteps(auth, form).steps.length;
    assert.equal(total('none'), 4);
    assert.equal(total('jwt'), 4);
    assert.equal(total('sandbox-secret'), 6);
    assert.equal(total('sandbox-secret', 'audience'), 6);
    assert.equal(total('sandbox-secret', 'scope'), 5);
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
    for (const [auth, form] of [['none'], ['jwt'], ['sandbox-secret', 'audience'], ['sandbox-secret', 'scope'], ['oauth2']] as const) {
      const path = connectionWizardSteps(auth, form);
      const last = path.steps[path.steps.length - 1];
      assert.deepEqual(wizardStepCounter(last, path), { step: path.steps.length, totalSteps: path.steps.length });
    }
  });
});

describe('sandbox tokens without a participant id', () => {
  const secret = 'wizard-test-shared-secret';

  it('reads the participant id once with a scope token, then mints audience tokens for it', async () => {
    const asked: string[] = [];
    const mint = sandboxTokenMinter({
      secret,
      userId: 'alice',
      form: 'audience',
      participantId: '  ',
      readParticipantId: async (token) => {
        asked.push(String(decodeJwt(token).scope));
        return 'participant1::1220abcd';
      },
    });
    const first = decodeJwt(await mint());
    const second = decodeJwt(await mint());
    assert.equal(first.aud, PARTICIPANT_AUDIENCE_PREFIX + 'participant1::1220abcd');
    assert.equal(second.aud, first.aud);
    assert.equal(first.sub, 'alice');
    assert.deepEqual(asked, ['daml_ledger_api'], 'asked once, with a scope-form token');
  });

  it('asks again after a failed read; never asks when the id, an audience or the scope form is given', async () => {
    let calls = 0;
    const failingOnce = sandboxTokenMinter({
      secret,
      userId: 'alice',
      form: 'audience',
      readParticipantId: async () => {
        calls++;
        if (calls === 1) throw new Error('down');
        return 'p::1';
      },
    });
    await assert.rejects(failingOnce(), /down/);
    assert.equal(decodeJwt(await failingOnce()).aud, PARTICIPANT_AUDIENCE_PREFIX + 'p::1');
    const never = async () => assert.fail('the participant id was read although it is not needed');
    assert.equal(decodeJwt(await sandboxTokenMinter({ secret, userId: 'a', form: 'audience', participantId: 'p::2', readParticipantId: never })()).aud, PARTICIPANT_AUDIENCE_PREFIX + 'p::2');
    assert.equal(decodeJwt(await sandboxTokenMinter({ secret, userId: 'a', form: 'audience', audience: 'custom', readParticipantId: never })()).aud, 'custom');
    assert.equal(decodeJwt(await sandboxTokenMinter({ secret, userId: 'a', form: 'scope', readParticipantId: never })()).scope, 'daml_ledger_api');
  });
});
