/**
 * "Spec-valid means valid": instances generated from each release's official spec for the request
 * bodies users write in files (JsCommands and the submit-and-wait-for-transaction request in
 * `*.commands.json`, UpdateVettedPackagesRequest in `*.vetting.json`) must get no error from
 * validateText, which the CLI's validate and the editor use. Warnings are allowed; each says why.
 */
import assert from 'node:assert/strict';
import { validateText, type FileKind } from '../../../src/core/files/validate';
import { requireSpec, SPEC_VERSIONS, specSchema, type SpecVersion } from '../../support/spec';
import { specInstances, type InstanceHooks } from '../../support/specInstances';

const PARTY = `Alice::1220${'a'.repeat(64)}`;
const HEX64 = 'ab'.repeat(32);

/** Strings by field name: what the participant accepts there. */
const STRINGS: Record<string, string> = {
  templateId: '#demo-iou:Iou:Iou',
  interfaceId: '#demo-iou:Iou:IouView',
  contractId: '00' + 'cd'.repeat(34),
  synchronizerId: `demo-sync::1220${'b'.repeat(64)}`,
  packageId: HEX64,
  packageName: 'demo-iou',
  packageVersion: '1.0.0',
  createdEventBlob: 'CgMyLjES',
  choice: 'Iou_Transfer',
  // 3.3's spec types it as a plain string.
  transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
  minLedgerTimeAbs: '2026-01-01T00:00:00Z',
  newValidFromInclusive: '2026-01-01T00:00:00Z',
  newValidUntilExclusive: '2027-01-01T00:00:00Z',
};
const PARTY_LISTS = new Set(['actAs', 'readAs']);

const hooks: InstanceHooks = {
  string: (name, path) => STRINGS[name] ?? (PARTY_LISTS.has(name) || path.endsWith('.parties[]') ? PARTY : name === 'packageIdSelectionPreference' ? HEX64 : `${name}-1`),
  any: (name) => (name === 'contractKey' ? { _1: PARTY, _2: 'car' } : { owner: PARTY }),
  integer: (name) => (name === 'nanos' ? 0 : 1),
  mapKey: () => PARTY,
  skip: (path, value) => REFUSED.find((r) => r.value === value && r.path.test(path))?.why,
  // The participant needs these although some specs mark them optional (a reference needs an id or a name).
  needed: (path, name) => /^\.commands$|^\.commands\.commands$/.test(path) || (name === 'actAs' && /^(\.commands)?\.actAs$/.test(path)) || (name === 'changes' && path === '.changes') || name === 'packages' || name === 'operation' || name === 'packageName',
  // Added by the protobuf-to-JSON mapping to responses; a request never carries it.
  omit: (_path, name) => name === 'unknownFields',
  // The participant refuses both minimum ledger times at once.
  exclusive: (path) => (/^(\.commands)?$/.test(path) ? [['minLedgerTimeAbs', 'minLedgerTimeRel']] : []),
};

/** Spec-listed values the participant refuses, with the reason: an error on them is right. */
const REFUSED: Array<{ path: RegExp; value: string; why: string }> = [
  { path: /\.transactionShape$/, value: 'TRANSACTION_SHAPE_UNSPECIFIED', why: 'refused as a missing field' },
  { path: /\.operation$/, value: 'Empty', why: 'an unset vetting operation is refused as missing' },
  { path: /\.serial$/, value: 'Empty', why: 'an unset expected serial is refused as missing' },
  { path: /\.updateVettedPackagesForceFlags\[\]$/, value: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED', why: 'the unset force flag is refused as a missing value' },
];

const ROOTS: Array<{ schema: string; kind: FileKind }> = [
  { schema: 'JsCommands', kind: 'commands' },
  { schema: 'JsSubmitAndWaitForTransactionRequest', kind: 'commands' },
  { schema: 'UpdateVettedPackagesRequest', kind: 'vetting' },
];

describe('schema: every spec-valid request of every release validates', () => {
  for (const version of SPEC_VERSIONS) {
    for (const { schema, kind } of ROOTS) {
      it(`${schema} instances of the ${version} spec get no error from validateText (${kind})`, function () {
        requireSpec(this, version as SpecVersion);
        if (!specSchema(version, schema)) this.skip();
        const instances = specInstances(version, schema, hooks);
        assert.ok(instances.length >= 3, `${instances.length} instances`);
        const failures = instances.flatMap(({ label, value }) =>
          validateText(kind, JSON.stringify(value, null, 2))
            .problems.filter((p) => p.severity === 'error' || p.message.trim() === '')
            .map((p) => `${label}: ${p.path} ${p.code}: ${p.message}\n    ${JSON.stringify(value).slice(0, 400)}`),
        );
        assert.deepEqual(failures, []);
      });
    }
  }

  it('the generator covers every case: the deduplication periods, Empty included, and both vetting operations', () => {
    const labels = specInstances('3.5', 'JsCommands', hooks).map((i) => JSON.stringify(i.value));
    for (const c of ['DeduplicationDuration', 'DeduplicationOffset', '"Empty"', 'ExerciseByKeyCommand', 'CreateAndExerciseCommand']) assert.ok(labels.some((l) => l.includes(c)), c);
    const vetting = specInstances('3.5', 'UpdateVettedPackagesRequest', hooks).map((i) => JSON.stringify(i.value));
    for (const c of ['"Vet"', '"Unvet"', '"Prior"', '"NoPrior"', 'ALLOW_UNVETTED_DEPENDENCIES']) assert.ok(vetting.some((l) => l.includes(c)), c);
    assert.ok(!vetting.some((l) => /"operation":\{"Empty"/.test(l)), 'refused cases are left out');
  });
});
