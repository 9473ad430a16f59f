import assert from 'node:assert/strict';
import { buildGetUpdatesRequest, buildUpdateFormat, legacySelection } from '../../../src/core/api/updatesRequest';
import { RequestValidationError } from '../../../src/core/errors';
import { ALICE, BOB, PKG } from '../../support/wireSamples';

const field = (name: string) => (e: unknown) => e instanceof RequestValidationError && e.field === name;

describe('GetUpdatesRequest building', () => {
  it('builds an updateFormat per party with explicit filtersByParty/verbose (for strict 3.3/3.4.11 clients)', () => {
    const req = buildGetUpdatesRequest({ beginExclusive: 0, endInclusive: 10 }, { filter: { parties: [ALICE, BOB, ALICE] } });
    assert.deepEqual(req, {
      beginExclusive: 0,
      endInclusive: 10,
      verbose: false,
      updateFormat: {
        includeTransactions: {
          eventFormat: {
            filtersByParty: {
              [ALICE]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] },
              [BOB]: { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } } }] },
            },
            verbose: false,
          },
          transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
        },
      },
    });
  });

  it('builds any-party, template and interface filters, ledger effects, reassignments and topology', () => {
    const f = buildUpdateFormat({
      anyParty: true, templateIds: ['#demo-iou:Iou:Iou'], interfaceIds: ['#demo-iface:I:I'], shape: 'ledger-effects',
      includeReassignments: true, includeTopologyEvents: true, verbose: true, includeCreatedEventBlob: true,
    });
    const ef = f.includeTransactions!.eventFormat;
    assert.deepEqual(ef.filtersByParty, {});
    assert.equal(ef.verbose, true);
    assert.deepEqual(ef.filtersForAnyParty!.cumulative, [
      { identifierFilter: { TemplateFilter: { value: { templateId: '#demo-iou:Iou:Iou', includeCreatedEventBlob: true } } } },
      { identifierFilter: { InterfaceFilter: { value: { interfaceId: '#demo-iface:I:I', includeInterfaceView: true, includeCreatedEventBlob: true } } } },
    ]);
    assert.equal(f.includeTransactions!.transactionShape, 'TRANSACTION_SHAPE_LEDGER_EFFECTS');
    assert.deepEqual(f.includeReassignments, ef);
    assert.deepEqual(f.includeTopologyEvents, { includeParticipantAuthorizationEvents: { parties: [] } });
  });

  it('builds the deprecated legacy form without updateFormat', () => {
    const req = buildGetUpdatesRequest({ beginExclusive: 5 }, legacySelection({ parties: [ALICE], verbose: true }));
    assert.equal(req.updateFormat, undefined);
    assert.equal(req.verbose, true);
    assert.deepEqual(Object.keys(req.filter!.filtersByParty!), [ALICE]);
  });

  it('for a release that refuses the top-level filter/verbose (3.6.1 on): neither is written; the legacy form becomes its updateFormat', () => {
    const plain = buildGetUpdatesRequest({ beginExclusive: 0 }, { filter: { parties: [ALICE] } }, false);
    assert.equal('verbose' in plain, false);
    assert.equal('filter' in plain, false);
    assert.ok(plain.updateFormat?.includeTransactions);
    const legacy = buildGetUpdatesRequest({ beginExclusive: 5 }, legacySelection({ anyParty: true, verbose: true }), false);
    assert.deepEqual(Object.keys(legacy).sort(), ['beginExclusive', 'updateFormat']);
    const eventFormat = legacy.updateFormat!.includeTransactions!.eventFormat;
    assert.equal(eventFormat.verbose, true);
    assert.deepEqual(eventFormat.filtersByParty, {});
    assert.ok(eventFormat.filtersForAnyParty?.cumulative?.length);
    assert.equal(legacy.updateFormat!.includeTransactions!.transactionShape, 'TRANSACTION_SHAPE_ACS_DELTA');
    assert.deepEqual(legacy.updateFormat!.includeReassignments, eventFormat);
    assert.equal(legacy.updateFormat!.includeTopologyEvents, undefined, 'the legacy form reads no topology events');
  });

  it('refuses what the participant would reject, naming the field', () => {
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: -1 }, { filter: { anyParty: true } }), field('beginExclusive'));
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 1.5 }, { filter: { anyParty: true } }), field('beginExclusive'));
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 0, descending: true }, { filter: { anyParty: true } }), field('descendingOrder'));
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 9, endInclusive: 3 }, { filter: { anyParty: true } }), field('endInclusive'));
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 0 }, { filter: {} }), field('parties'));
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 0 }, { filter: { anyParty: true, templateIds: [`${PKG}:Iou:Iou`] } }), field('templateIds'));
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 0 }, { filter: { anyParty: true, includeTransactions: false } }), field('updateFormat'));
    const both = { filter: { anyParty: true }, legacy: { filter: {} } } as never;
    assert.throws(() => buildGetUpdatesRequest({ beginExclusive: 0 }, both), field('updateFormat'));
  });
});
