// The version table of src/core/versions.ts against the official spec of every release line: the
// endpoints, which request schema each takes, and the required fields of those requests.
import assert from 'node:assert/strict';
import {
  API_LINES,
  allEndpoints,
  atLeast,
  endpointExists,
  endpointFor,
  factsOf,
  firstMissingField,
  lineOf,
  REQUEST_SHAPES,
  requiredAt,
  requiredFieldsByPath,
  capabilitiesOf,
  unknownVersionNotice,
  type RequestSchemaName,
  type RequestShape,
} from '../../src/core/versions';
import { channelSchemaName, requestSchemaName, requiredFieldsByPath as specRequiredFieldsByPath, requireSpec, SPEC_OF_LINE, specChannels, specEndpoints } from '../support/spec';

describe('version table', () => {
  it('places versions in their release line; unknown versions are the newest', () => {
    assert.equal(lineOf('3.3.0-SNAPSHOT'), '3.3');
    assert.equal(lineOf('3.2.1'), '3.3');
    assert.equal(lineOf('3.4.0'), '3.4.11');
    assert.equal(lineOf('3.4.11'), '3.4.11');
    assert.equal(lineOf('3.4.12-demo'), '3.4.12');
    assert.equal(lineOf('3.5.3'), '3.5');
    assert.equal(lineOf('3.6.0-SNAPSHOT'), '3.6');
    assert.equal(lineOf('main-snapshot'), '3.6');
    assert.ok(atLeast('3.5.1', '3.5.1') && !atLeast('3.5.0', '3.5.1') && atLeast('4.0', '3.6.0'));
  });

  it('a version newer than the newest line is treated as the newest, with one line saying so; known lines have none', () => {
    const newer = capabilitiesOf('3.7.0');
    assert.equal(newer.line, '3.6');
    assert.equal(newer.notice, 'Canton 3.7.0 is newer than the newest release this extension knows (3.6): treated as 3.6.');
    // What 3.6 has, and 3.6 dropped, the newer release is taken to have and to have dropped too.
    assert.ok(newer.has('updatesPage') && !newer.has('listUpdatesFlats'));
    assert.equal(unknownVersionNotice('4.0.1'), 'Canton 4.0.1 is newer than the newest release this extension knows (3.6): treated as 3.6.');
    assert.equal(unknownVersionNotice('main-snapshot'), 'Canton version "main-snapshot" is not one this extension knows: treated as 3.6.');
    for (const known of ['3.3.0', '3.4.11', '3.4.12-demo', '3.5.10', '3.6.0-SNAPSHOT', '3.6.4', '2.10.0']) assert.equal(capabilitiesOf(known).notice, undefined, known);
  });

  it('picks the form of an operation that the version has', () => {
    assert.equal(endpointFor('authenticatedUser', '3.3.0'), undefined);
    assert.equal(endpointFor('authenticatedUser', '3.4.0')?.path, '/v2/authenticated-user');
    assert.equal(endpointFor('updateVettedPackages', '3.3.0'), undefined);
    assert.deepEqual(endpointFor('updateVettedPackages', '3.4.11'), { method: 'POST', path: '/v2/package-vetting', since: '3.4.0', until: '3.6.0' });
    assert.equal(endpointFor('updateVettedPackages', '3.4.12')?.path, '/v2/package-vetting/update');
    assert.equal(endpointFor('listVettedPackages', '3.4.5')?.method, 'GET');
    assert.equal(endpointFor('updatesPage', '3.5.0'), undefined);
    assert.equal(endpointFor('updatesPage', '3.5.1')?.path, '/v2/updates/get-updates-page');
    assert.equal(endpointFor('listUpdatesFlats', '3.6.0'), undefined);
    assert.equal(endpointFor('prepare', '3.3.0')?.path, '/v2/interactive-submission/prepare');
    assert.equal(endpointFor('activeContractsPage', '3.5.0'), undefined);
    assert.equal(endpointFor('activeContractsPage', '3.5.1')?.path, '/v2/state/active-contracts-page');
    assert.equal(factsOf('3.3.0').prepareSingleCommand, false);
    assert.equal(factsOf('3.4.0').prepareSingleCommand, true);
    assert.deepEqual(endpointFor('subscribeUpdates', '3.3.0'), { method: 'GET', path: '/v2/updates', websocket: true });
    assert.equal(factsOf('3.3.0').wire.topologyEventWrapped, false);
    assert.equal(factsOf('3.4.0').wire.topologyEventWrapped, true);
  });

  for (const { line, spec: version } of API_LINES) {
    const spec = SPEC_OF_LINE[line];
    describe(`against the ${line} spec`, () => {
      it('every endpoint of the table exists in the spec exactly when the table says so (websocket channels in the asyncapi spec)', function () {
        requireSpec(this, spec);
        const inSpec = specEndpoints(spec);
        const channels = specChannels(spec);
        const wrong = allEndpoints()
          .filter((e) => !(e.documentedSince && !atLeast(version, e.documentedSince)))
          .filter((e) => endpointExists(e, version) !== (e.websocket ? channels : inSpec).has(`${e.method} ${e.path}`))
          .map((e) => `${e.websocket ? 'websocket ' : ''}${e.method} ${e.path}: table ${endpointExists(e, version) ? 'has' : 'lacks'} it`);
        assert.deepEqual(wrong, []);
        assert.ok(channels.has("GET /v2/updates") && channels.size >= 4, `the asyncapi spec was read (${channels.size} channels)`);
      });

      it('every request body of those endpoints (and first frame of those channels) has a shape in the table', function () {
        requireSpec(this, spec);
        const missing = allEndpoints()
          .filter((e) => endpointExists(e, version))
          .map((e) => (e.websocket ? channelSchemaName(spec, e.path, 'publish') : requestSchemaName(spec, e.method, e.path)))
          .filter((name): name is string => name !== undefined && !(name in REQUEST_SHAPES));
        assert.deepEqual(missing, []);
      });

      it('the required fields of every request shape are the spec’s', function () {
        requireSpec(this, spec);
        const roots = new Set(allEndpoints().flatMap((e) => requestSchemaName(spec, e.method, e.path) ?? []));
        let compared = 0;
        for (const root of Object.keys(REQUEST_SHAPES) as RequestSchemaName[]) {
          if (!roots.has(root) && !(root === 'JsCommands' && roots.has('JsSubmitAndWaitForTransactionRequest'))) continue;
          compared++;
          const fromSpec = Object.fromEntries(specRequiredFieldsByPath(spec, root));
          const fromTable = Object.fromEntries(requiredFieldsByPath(root, version));
          assert.deepEqual(fromTable, fromSpec, `${root} at ${line}`);
        }
        assert.ok(compared >= 5, `compared only ${compared} request shapes`);
      });
    });
  }

  it('every leniency names a field the spec requires there', () => {
    const stale: string[] = [];
    const walk = (shape: RequestShape, path: string) => {
      for (const { spec: version } of API_LINES) {
        const required = requiredAt(shape.required, version);
        for (const field of requiredAt(shape.lenient, version)) if (!required.includes(field)) stale.push(`${path}.${field} at ${version}`);
      }
      for (const [name, member] of Object.entries(shape.fields ?? {})) walk(member, `${path}.${name}`);
      if (shape.items) walk(shape.items, `${path}[]`);
      if (shape.values) walk(shape.values, `${path}.*`);
    };
    for (const [name, shape] of Object.entries(REQUEST_SHAPES)) walk(shape, name);
    assert.deepEqual(stale, []);
    assert.equal(firstMissingField('GetUpdatesRequest', { beginExclusive: 0, filter: { filtersByParty: {} } }, '3.4.12'), undefined, 'the legacy form on 3.4.12');
  });

  it('finds the first missing required field, where circe would report it', () => {
    const body = { beginExclusive: 0, verbose: false, updateFormat: { includeTransactions: { eventFormat: { filtersByParty: {}, verbose: false } } } };
    assert.deepEqual(firstMissingField('GetUpdatesRequest', body, '3.3.0'), { path: '.updateFormat.includeTransactions', field: 'transactionShape' });
    assert.deepEqual(firstMissingField('GetUpdatesRequest', { beginExclusive: 0, verbose: null }, '3.3.0'), { path: '', field: 'verbose' });
    assert.equal(firstMissingField('GetUpdatesRequest', { beginExclusive: 0 }, '3.5.0'), undefined);
    const byParty = { contractId: 'c', eventFormat: { filtersByParty: { alice: { cumulative: [{ identifierFilter: { TemplateFilter: { value: {} } } }] } } } };
    assert.deepEqual(firstMissingField('GetEventsByContractIdRequest', byParty, '3.5.0'), { path: '.eventFormat.filtersByParty.alice.cumulative[0].identifierFilter.TemplateFilter.value', field: 'templateId' });
    assert.deepEqual(firstMissingField('UpdateVettedPackagesRequest', { changes: [] }, '3.4.11'), { path: '', field: 'dryRun' });
  });
});
