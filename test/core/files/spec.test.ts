/**
 * Our schemas (media/schemas/) against the official Canton OpenAPI specs: same fields, same variant cases
 * (minus the "unset" `Empty` case), same enum values (minus `*_UNSPECIFIED`), at least the spec's required
 * fields, and every file our schema accepts is accepted by the spec.
 */
import assert from 'node:assert/strict';
import commandsSchema from '../../../media/schemas/commands.schema.json';
import vettingSchema from '../../../media/schemas/vetting.schema.json';
import { validateText } from '../../../src/core/files/validate';
import { exampleRequests, validCorpus, type CorpusFile } from '../../fixtures/files/corpus';
import { derefSpec, requireSpec, specSchema, specValidator, type SpecSchema, type SpecVersion } from '../../support/spec';

type Schema = Record<string, unknown>;

/** The spec versions our schemas must agree with: the current release line, and main where it has the type. */
const VERSIONS: SpecVersion[] = ['3.5', 'main-3.6'];

/** Spec properties we deliberately leave out, with the reason. */
const OMITTED_SPEC_PROPERTIES: Record<string, string> = {
  // "automatically added as part of protobuf to json mapping": a response artefact, never sent.
  'Duration.unknownFields': 'response-only',
};

interface Root {
  ours: Schema;
  specName: string;
}

const ROOTS: Record<string, Root> = {
  JsCommands: { ours: definition(commandsSchema, 'JsCommands'), specName: 'JsCommands' },
  request: { ours: definition(commandsSchema, 'SubmitAndWaitForTransactionRequest'), specName: 'JsSubmitAndWaitForTransactionRequest' },
  vetting: { ours: definition(vettingSchema, 'UpdateVettedPackagesRequest'), specName: 'UpdateVettedPackagesRequest' },
};

describe('schema: agreement with the Canton OpenAPI spec', function () {
  before(function () {
    requireSpec(this);
  });

  for (const version of VERSIONS) {
    describe(`spec ${version}`, () => {
      it('JsCommands has exactly the spec\'s properties', () => {
        assert.deepEqual(sortedKeys(ROOTS.JsCommands.ours.properties), sortedKeys(spec(version, 'JsCommands').properties));
      });

      it('Command: every kind of the spec, nothing else', () => {
        assert.deepEqual(ourCases('JsCommands', ['commands', '[]']), specCases(version, 'JsCommands', ['commands', '[]']));
        assert.deepEqual(ourCases('JsCommands', ['commands', '[]']), [
          'CreateAndExerciseCommand',
          'CreateCommand',
          'ExerciseByKeyCommand',
          'ExerciseCommand',
        ]);
      });

      it('DeduplicationPeriod: the spec\'s cases minus Empty', () => {
        assert.deepEqual(ourCases('JsCommands', ['deduplicationPeriod']), specCases(version, 'JsCommands', ['deduplicationPeriod']));
      });

      it('IdentifierFilter (transaction filters): the spec\'s cases minus Empty', () => {
        const path = ['transactionFormat', 'eventFormat', 'filtersForAnyParty', 'cumulative', '[]', 'identifierFilter'];
        assert.deepEqual(ourCases('request', path), specCases(version, 'JsSubmitAndWaitForTransactionRequest', path));
      });

      it('transactionShape: the spec\'s values minus UNSPECIFIED', () => {
        assert.deepEqual(
          ourEnum('request', ['transactionFormat', 'transactionShape']),
          specEnum(version, 'JsSubmitAndWaitForTransactionRequest', ['transactionFormat', 'transactionShape']),
        );
      });

      if (specSchemaExists(version, 'UpdateVettedPackagesRequest')) {
        it('VettedPackagesChange operation: the spec\'s cases minus Empty', () => {
          const path = ['changes', '[]', 'operation'];
          assert.deepEqual(ourCases('vetting', path), specCases(version, 'UpdateVettedPackagesRequest', path));
          assert.deepEqual(ourCases('vetting', path), ['Unvet', 'Vet']);
        });

        it('PriorTopologySerial serial: the spec\'s cases minus Empty', () => {
          const path = ['expectedTopologySerial', 'serial'];
          assert.deepEqual(ourCases('vetting', path), specCases(version, 'UpdateVettedPackagesRequest', path));
        });

        it('force flags: the spec\'s values minus UNSPECIFIED', () => {
          const path = ['updateVettedPackagesForceFlags', '[]'];
          assert.deepEqual(ourEnum('vetting', path), specEnum(version, 'UpdateVettedPackagesRequest', path));
          assert.equal(ourEnum('vetting', path).length, 2);
        });
      }

      for (const [rootName, root] of Object.entries(ROOTS)) {
        if (!specSchemaExists(version, root.specName)) continue;
        it(`${rootName}: every object has the spec's properties and at least its required ones, all the way down`, () => {
          const visited = compareDeep(version, root.ours, spec(version, root.specName), root.specName);
          assert.ok(visited > 5, `only ${visited} objects compared`);
        });
      }

      describe('every valid file is valid for the spec', () => {
        const files = (): CorpusFile[] => [...validCorpus(), ...exampleRequests()];
        it('the spec validator is a real check (it rejects a request without commands)', () => {
          assert.equal(specValidator(version, 'JsCommands')({ commandId: 'x', actAs: ['a'] }).ok, false);
        });
        it('commands files', () => {
          const checked = files().filter((f) => f.kind === 'commands');
          assert.ok(checked.length >= 8);
          for (const file of checked) assertSpecValid(version, file);
        });
        it('vetting files', function () {
          if (!specSchemaExists(version, 'UpdateVettedPackagesRequest')) this.skip();
          const checked = files().filter((f) => f.kind === 'vetting');
          assert.ok(checked.length >= 3);
          for (const file of checked) assertSpecValid(version, file);
        });
      });
    });
  }
});

function assertSpecValid(version: SpecVersion, file: CorpusFile): void {
  const { value, problems } = validateText(file.kind, file.text);
  assert.deepEqual(problems, [], `${file.name} must be valid for our schema`);
  const specName =
    file.kind === 'vetting'
      ? 'UpdateVettedPackagesRequest'
      : isObject((value as Schema).commands)
        ? 'JsSubmitAndWaitForTransactionRequest'
        : 'JsCommands';
  // Requests carry no nulls, so validate them exactly as they would be sent.
  const result = specValidator(version, specName, { stripNulls: false })(value);
  assert.ok(result.ok, `${file.name} is not a valid ${specName} for spec ${version}: ${JSON.stringify(result.errors, null, 2)}`);
}

// ------------------------------------------------------------------ walking both schemas

/**
 * Compares an object of ours with the spec's, recursively through properties, array items, map values and
 * variant cases. Returns how many object schemas were compared.
 */
function compareDeep(version: SpecVersion, oursIn: Schema, specIn: SpecSchema, where: string): number {
  const ours = derefOurs(oursIn);
  const theirs = derefSpec(version, specIn);
  let visited = 0;

  if (isVariant(ours)) {
    const cases = Object.keys(ours.properties as Schema).sort();
    assert.deepEqual(cases, casesOfSpecVariant(version, theirs), `${where}: variant cases`);
    for (const name of cases) {
      visited += compareDeep(version, (ours.properties as Schema)[name] as Schema, specCaseSchema(version, theirs, name), `${where}.${name}`);
    }
    return visited;
  }
  if (ours.type === 'array') {
    assert.equal(theirs.type, 'array', `${where}: type`);
    return compareDeep(version, ours.items as Schema, theirs.items as SpecSchema, `${where}[]`);
  }
  if (ours.type === 'object' && isObject(ours.additionalProperties)) {
    assert.ok(isObject(theirs.additionalProperties), `${where}: the spec has no map here`);
    return compareDeep(version, ours.additionalProperties, theirs.additionalProperties as SpecSchema, `${where}{}`);
  }
  if (ours.type === 'object' && isObject(ours.properties)) {
    const specTitle = typeof theirs.title === 'string' ? theirs.title : where;
    const specProperties = sortedKeys(theirs.properties).filter((name) => !OMITTED_SPEC_PROPERTIES[`${specTitle}.${name}`]);
    assert.deepEqual(sortedKeys(ours.properties), specProperties, `${where}: properties`);
    const ourRequired = new Set((ours.required as string[] | undefined) ?? []);
    for (const name of (theirs.required as string[] | undefined) ?? []) {
      assert.ok(ourRequired.has(name), `${where}: the spec requires ${name}, ours does not`);
    }
    visited = 1;
    for (const name of specProperties) {
      visited += compareDeep(version, ours.properties[name] as Schema, (theirs.properties as Record<string, SpecSchema>)[name], `${where}.${name}`);
    }
    return visited;
  }
  // A scalar (or a free-form Daml payload, which the spec leaves untyped).
  if (theirs.type !== undefined) assert.equal(ours.type, theirs.type, `${where}: type`);
  if (Array.isArray(ours.enum)) assert.deepEqual([...ours.enum].sort(), withoutUnspecified(theirs.enum), `${where}: enum`);
  return visited;
}

/** Our schema node at `path` below a root: property names, `[]` for array items, variant case names. */
function ourNode(rootName: keyof typeof ROOTS, path: string[]): Schema {
  let node = derefOurs(ROOTS[rootName].ours);
  for (const segment of path) {
    node = derefOurs((segment === '[]' ? node.items : (node.properties as Schema)[segment]) as Schema);
  }
  return node;
}

function specNode(version: SpecVersion, specName: string, path: string[]): SpecSchema {
  let node = spec(version, specName);
  for (const segment of path) {
    node = derefSpec(version, segment === '[]' ? (node.items as SpecSchema) : (node.properties as Record<string, SpecSchema>)[segment]);
  }
  return node;
}

function ourCases(rootName: keyof typeof ROOTS, path: string[]): string[] {
  const node = ourNode(rootName, path);
  assert.ok(isVariant(node), `${path.join('.')} is not a variant in our schema`);
  return sortedKeys(node.properties);
}

function specCases(version: SpecVersion, specName: string, path: string[]): string[] {
  return casesOfSpecVariant(version, specNode(version, specName, path));
}

function ourEnum(rootName: keyof typeof ROOTS, path: string[]): string[] {
  return [...(ourNode(rootName, path).enum as string[])].sort();
}

function specEnum(version: SpecVersion, specName: string, path: string[]): string[] {
  return withoutUnspecified(specNode(version, specName, path).enum);
}

/** The case names of a spec `oneOf` (each alternative is `{required: [Case], properties: {Case: …}}`), minus `Empty`. */
function casesOfSpecVariant(version: SpecVersion, node: SpecSchema): string[] {
  assert.ok(Array.isArray(node.oneOf), `expected a oneOf in the spec, got ${JSON.stringify(node).slice(0, 200)}`);
  return (node.oneOf as SpecSchema[])
    .map((alternative) => sortedKeys(derefSpec(version, alternative).properties))
    .map((keys) => {
      assert.equal(keys.length, 1, 'a spec variant alternative has one property');
      return keys[0];
    })
    .filter((name) => name !== 'Empty')
    .sort();
}

function specCaseSchema(version: SpecVersion, variant: SpecSchema, name: string): SpecSchema {
  for (const alternative of variant.oneOf as SpecSchema[]) {
    const properties = derefSpec(version, alternative).properties as Record<string, SpecSchema> | undefined;
    if (properties?.[name]) return properties[name];
  }
  throw new Error(`spec variant has no case ${name}`);
}

function withoutUnspecified(values: unknown): string[] {
  assert.ok(Array.isArray(values), 'the spec has an enum here');
  return (values as string[]).filter((v) => !v.endsWith('_UNSPECIFIED')).sort();
}

/** Same encoding as in src/core/files/schemaProblems.ts: properties = cases, exactly one of them. */
function isVariant(node: Schema): boolean {
  return node.minProperties === 1 && node.maxProperties === 1 && node.additionalProperties === false;
}

function derefOurs(node: Schema): Schema {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const name = /^#\/definitions\/(.+)$/.exec(ref)?.[1];
  const target =
    name && ((commandsSchema.definitions as Record<string, Schema>)[name] ?? (vettingSchema.definitions as Record<string, Schema>)[name]);
  if (!target) throw new Error(`cannot resolve ${ref}`);
  return target;
}

function definition(schema: { definitions: object }, name: string): Schema {
  return (schema.definitions as Record<string, Schema>)[name];
}

function spec(version: SpecVersion, name: string): SpecSchema {
  const schema = specSchema(version, name);
  assert.ok(schema, `spec ${version} has no ${name}`);
  return derefSpec(version, schema);
}

function specSchemaExists(version: SpecVersion, name: string): boolean {
  try {
    return specSchema(version, name) !== undefined;
  } catch {
    return false; // spec missing: the suite's before() skips with a warning
  }
}

function sortedKeys(value: unknown): string[] {
  return isObject(value) ? Object.keys(value).sort() : [];
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
