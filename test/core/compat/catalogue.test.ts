// The catalogue of what the client sends and reads: every operation of the version table is in it
// or said to be unsent; the commands and vetting files it passes on are the files' own language; and
// the root hook that holds every request of the test run to it (test/support/catalogueCheck.ts) does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LedgerClient } from '../../../src/core/api/client';
import { CATALOGUE, catalogueEntry, TRANSACTION_SHAPES, UNSENT_OPERATIONS, undeclaredParts, type SentField } from '../../../src/core/compat/catalogue';
import { OPERATIONS } from '../../../src/core/versions';
import { takeSentRequests } from '../../support/catalogueCheck';
import { REPO_ROOT } from '../../support/spec';
import { startCheckedParticipant } from '../../support/specCheck';

type JsonSchema = { $ref?: string; properties?: Record<string, JsonSchema>; items?: JsonSchema; additionalProperties?: unknown; enum?: string[] };

/** Where a file schema and a catalogue tree disagree: members, list items, map values, enum values. */
function differences(file: { definitions: Record<string, JsonSchema> }, schema: JsonSchema, field: SentField, at: string): string[] {
  const resolve = (s: JsonSchema): JsonSchema => (s.$ref ? resolve(file.definitions[s.$ref.replace('#/definitions/', '')]) : s);
  const s = resolve(schema);
  if (field.opaque) return [];
  const out: string[] = [];
  const values = s.enum ?? resolve(s.items ?? {}).enum;
  if (values && JSON.stringify([...values].sort()) !== JSON.stringify([...(field.values ?? [])].sort())) out.push(`${at}: the file takes ${values.join(', ')}; the catalogue sends ${field.values?.join(', ') ?? 'no listed values'}`);
  if (s.properties) {
    const theirs = Object.keys(s.properties);
    const ours = Object.keys(field.fields ?? {});
    for (const name of theirs.filter((n) => !ours.includes(n))) out.push(`${at}.${name}: in the file's language, not in the catalogue`);
    for (const name of ours.filter((n) => !theirs.includes(n))) out.push(`${at}.${name}: in the catalogue, not in the file's language`);
    for (const name of theirs.filter((n) => ours.includes(n))) out.push(...differences(file, s.properties[name], field.fields![name], `${at}.${name}`));
  }
  if (s.items && field.items) out.push(...differences(file, s.items, field.items, `${at}[]`));
  if (typeof s.additionalProperties === 'object' && field.entries) out.push(...differences(file, s.additionalProperties as JsonSchema, field.entries, `${at}.*`));
  return out;
}

/** A tree's members, items, map values and enum values, without when and how often they are sent. */
function structure(field: SentField | undefined): unknown {
  if (!field) return undefined;
  return {
    values: field.values,
    opaque: field.opaque,
    fields: field.fields && Object.fromEntries(Object.entries(field.fields).map(([k, v]) => [k, structure(v)])),
    items: structure(field.items),
    entries: structure(field.entries),
  };
}

const fileSchema = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, 'media', 'schemas', name), 'utf8')) as { definitions: Record<string, JsonSchema> };
const bodyRoot = (operation: keyof typeof CATALOGUE): SentField => {
  const body = catalogueEntry(operation).body;
  assert.ok(body && body !== 'bytes');
  return body.root;
};

describe('the catalogue of requests', () => {
  it('has every operation of the version table, or says the client never sends it', () => {
    const catalogued = Object.keys(CATALOGUE);
    assert.deepEqual(Object.keys(OPERATIONS).filter((op) => !catalogued.includes(op) && !(UNSENT_OPERATIONS as readonly string[]).includes(op)), []);
    assert.deepEqual(UNSENT_OPERATIONS.filter((op) => catalogued.includes(op)), []);
  });

  it('passes a commands file on in the file’s own language: the same fields, cases and enum values', () => {
    const commands = fileSchema('commands.schema.json');
    const submit = bodyRoot('submitAndWaitForTransaction');
    assert.deepEqual(differences(commands, commands.definitions.SubmitAndWaitForTransactionRequest, submit, 'submit'), []);
    assert.deepEqual(differences(commands, commands.definitions.JsCommands, submit.fields!.commands, 'JsCommands'), []);
    assert.deepEqual([...submit.fields!.transactionFormat.fields!.transactionShape.values!], [...TRANSACTION_SHAPES]);
    // Prepare takes the file's commands, minus what only a submission has, plus what older decoders insist on.
    const prepare = bodyRoot('prepare').fields!;
    const jsCommands = submit.fields!.commands.fields!;
    for (const shared of ['commands', 'commandId', 'actAs', 'readAs', 'userId', 'synchronizerId', 'disclosedContracts', 'packageIdSelectionPreference', 'prefetchContractKeys']) {
      assert.deepEqual(structure(prepare[shared]), structure(jsCommands[shared]), shared);
    }
  });

  it('passes a vetting file on in the file’s own language', () => {
    const vetting = fileSchema('vetting.schema.json');
    assert.deepEqual(differences(vetting, vetting.definitions.UpdateVettedPackagesRequest, bodyRoot('updateVettedPackages'), 'UpdateVettedPackagesRequest'), []);
  });

  it('names what a request sends beyond it: a query parameter, a member at any depth, a map value’s member, an enum value', () => {
    const body = {
      beginExclusive: 0,
      verbose: false,
      typo: 1,
      updateFormat: {
        includeTransactions: {
          transactionShape: 'TRANSACTION_SHAPE_SOMETHING_NEW',
          eventFormat: { filtersByParty: { 'Alice::1220': { cumulative: [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false, extra: true } } } }] } }, verbose: false },
        },
      },
    };
    assert.deepEqual(undeclaredParts('listUpdates', { method: 'POST', query: { limit: 3, sort: 'x' }, body }), [
      'query parameter sort',
      'GetUpdatesRequest.typo',
      'GetUpdatesRequest.updateFormat.includeTransactions.transactionShape = TRANSACTION_SHAPE_SOMETHING_NEW',
      'GetUpdatesRequest.updateFormat.includeTransactions.eventFormat.filtersByParty.*.cumulative[].identifierFilter.WildcardFilter.value.extra',
    ]);
    assert.deepEqual(undeclaredParts('listUpdates', { method: 'POST', query: { limit: 3 }, body: { ...body, typo: undefined, updateFormat: {} } }), []);
    assert.deepEqual(undeclaredParts('packages', { method: 'GET', body: {} }), ['a JSON body']);
  });

  it('every request of this run is held to it: one with a field it does not declare is named', async () => {
    const p = await startCheckedParticipant({ port: 0, seed: 3 });
    try {
      const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 10_000 });
      takeSentRequests();
      await client.ledgerEnd();
      await client.listVettedPackages({ topologyStateFilter: { participantIds: [p.participantId] }, unknownFilter: true } as never);
      const seen = takeSentRequests();
      assert.ok(seen.sent >= 3, `${seen.sent} requests seen (the version, the end, the list)`);
      assert.deepEqual(seen.undeclared, ['listVettedPackages (POST /v2/package-vetting/list): ListVettedPackagesRequest.unknownFilter']);
    } finally {
      await p.close();
    }
  });
});
