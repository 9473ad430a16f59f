// What keeps a commands file from being sent by the editor and the CLI (ledger scripts refuse every
// error): its errors, and a generated placeholder left in a Daml value (a participant would store
// "<Text>" as text).
import assert from 'node:assert/strict';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import type { ArgumentContext } from '../../../src/core/files/argumentChecks';
import { checkBeforeSending, validateText } from '../../../src/core/files/validate';
import { DARS, requireDar } from '../../support/dars';

const ALICE = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PING = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';

const pingFile = (createArguments: object, extra: object = {}) => JSON.stringify({ commandId: 'send-1', actAs: [ALICE], commands: [{ CreateCommand: { templateId: PING, createArguments } }], ...extra }, null, 2);
const codes = (text: string, packages?: ArgumentContext) => checkBeforeSending('commands', text, packages).problems.map((p) => [p.code, p.severity, text.slice(p.offset, p.offset + p.length)]);

describe('core: the check before sending', () => {
  let ping: ArgumentContext;
  before(function () {
    ping = { packages: new PackageIndex(requireDar(this, DARS.ping).packages), source: 'in the ping DAR' };
  });

  it('with the packages, a placeholder left in a Daml value is an error where it is written', () => {
    const text = pingFile({ id: '<Text>', initiator: ALICE, responder: '<Party>' });
    assert.deepEqual(codes(text, ping), [
      ['placeholder', 'error', '"<Text>"'],
      ['placeholder', 'error', '"<Party>"'],
    ]);
    assert.deepEqual(codes(text), [], 'without the packages nothing says what type the value has');
  });

  it('other wrong values are left to the participant, whose answer names them; the envelope\'s errors stay', () => {
    const wrong = pingFile({ id: 7, initiator: ALICE, responder: ALICE });
    assert.ok(validateText('commands', wrong, { packages: ping }).problems.some((p) => p.code === 'wrong-kind'), 'the editor marks it');
    assert.deepEqual(codes(wrong, ping), []);
    const noCommandId = JSON.stringify({ actAs: [ALICE], commands: [{ CreateCommand: { templateId: PING, createArguments: { id: '<Text>', initiator: ALICE, responder: ALICE } } }] });
    assert.deepEqual(codes(noCommandId, ping).map(([code]) => code), ['missing-command-id', 'placeholder']);
  });
});
