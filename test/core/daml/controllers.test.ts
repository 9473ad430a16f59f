/**
 * Choice controllers read from the packages' `controllers` expressions (real DARs in
 * ../shared/daml/dars/, and the demo catalog). What each choice's controllers are comes from the Daml
 * sources: digital-asset/canton's Canton/Internal/Ping.daml (`signatory initiator`, Respond
 * `controller responder`, AbortPing `with anyone : Party … controller anyone`), hyperledger-labs/splice's
 * Splice/AmuletRules.daml (AmuletRules_Mint `controller dso, receiver`; AmuletRules_Transfer
 * `controller transferControllers transfer`, a function; TransferPreapproval `signatory dso, provider,
 * receiver`) and Splice/Api/Token/HoldingV1.daml (an interface: Archive by its signatories), and the
 * encoder tests' InterfaceMod (`controller getParty this`, a method): not from this decoder's output.
 */
import assert from 'node:assert/strict';
import { decodeArchivePayload } from '../../../src/core/daml/lf/archive';
import type { Choice, Controllers, DamlPackage } from '../../../src/core/daml/model';
import { CATALOG } from '../../../src/participant/catalog';
import { DARS, requireDar, type DarName } from '../../support/dars';

/** The choice `entity:choice` of the DAR's main package (or of the package named `packageName`). */
function choiceOf(context: Mocha.Context, dar: DarName, entity: string, choice: string, packageName?: string): Choice {
  const { mainPackageId, packages } = requireDar(context, dar);
  const pkg = packages.find((p) => (packageName ? p.name === packageName : p.id === mainPackageId))!;
  return findChoice(pkg, entity, choice);
}

function findChoice(pkg: DamlPackage, entity: string, choice: string): Choice {
  const found = pkg.modules
    .flatMap((m) => [...m.templates, ...m.interfaces])
    .find((t) => t.name === entity)
    ?.choices.find((c) => c.name === choice);
  assert.ok(found, `${pkg.name} has ${entity}:${choice}`);
  return found;
}

const contract = (...names: string[]) => names.map((name) => ({ kind: 'contractField' as const, path: [name] }));
const argument = (name: string) => ({ kind: 'argumentField' as const, path: [name] });
const terms = (...list: Extract<Controllers, { kind: 'terms' }>['terms']): Controllers => ({ kind: 'terms', terms: list });

describe('daml packages: choice controllers', () => {
  it('Ping (LF 2.2): a field of the contract, a field of the argument, and Archive by the signatory field', function () {
    assert.deepEqual(choiceOf(this, DARS.ping, 'Ping', 'Respond').controllers, terms(...contract('responder')));
    assert.deepEqual(choiceOf(this, DARS.ping, 'Ping', 'AbortPing').controllers, terms(argument('anyone')));
    assert.deepEqual(choiceOf(this, DARS.ping, 'Ping', 'Archive').controllers, terms(...contract('initiator')));
  });

  it('Ping of Canton 3.3 (LF 2.1: multi-parameter lambdas, no interned expressions) reads the same', function () {
    assert.deepEqual(choiceOf(this, DARS.adminWorkflows33, 'Ping', 'Respond').controllers, terms(...contract('responder')));
    assert.deepEqual(choiceOf(this, DARS.adminWorkflows33, 'Ping', 'AbortPing').controllers, terms(argument('anyone')));
  });

  it('splice-amulet: a list of a contract field and an argument field; several signatories; a computed set is unknown', function () {
    assert.deepEqual(choiceOf(this, DARS.amulet, 'AmuletRules', 'AmuletRules_Mint', 'splice-amulet').controllers, terms(...contract('dso'), argument('receiver')));
    assert.deepEqual(choiceOf(this, DARS.amulet, 'TransferPreapproval', 'Archive', 'splice-amulet').controllers, terms(...contract('dso', 'provider', 'receiver')));
    assert.deepEqual(choiceOf(this, DARS.amulet, 'AmuletRules', 'AmuletRules_Transfer', 'splice-amulet').controllers, { kind: 'unknown' });
  });

  it('interfaces: Archive of the token standard Holding is its signatories; a method call is unknown', function () {
    assert.deepEqual(choiceOf(this, DARS.holding, 'Holding', 'Archive').controllers, terms({ kind: 'signatories' }));
    assert.deepEqual(choiceOf(this, DARS.encoder22, 'Boxy', 'ReturnInt').controllers, { kind: 'unknown' });
    assert.deepEqual(choiceOf(this, DARS.encoder21, 'Boxy', 'ReturnInt').controllers, { kind: 'unknown' });
  });

  it("the demo catalog: Iou_Transfer by the Iou's owner, Holding_Transfer by the view's owner", () => {
    const iou = CATALOG.find((p) => p.name === 'demo-iou' && p.version === '1.0.0')!;
    const holding = CATALOG.find((p) => p.name === 'demo-holding')!;
    // The bytes `/v2/packages/{id}` serves, decoded as the extension decodes them.
    assert.deepEqual(findChoice(decodeArchivePayload(iou.payload), 'Iou', 'Iou_Transfer').controllers, terms(...contract('owner')));
    assert.deepEqual(findChoice(decodeArchivePayload(holding.payload), 'Holding', 'Holding_Transfer').controllers, terms({ kind: 'viewField', path: ['owner'] }));
  });
});
