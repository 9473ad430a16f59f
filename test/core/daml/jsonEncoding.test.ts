/**
 * The JSON Ledger API encoding of Daml values: generated JSON Schemas (compiled with ajv, as the
 * extension's validators are) and the direct checker must accept and refuse the same values, by the
 * rules of "Daml-LF JSON Encoding" (see src/core/daml/jsonEncoding.ts), on hand-built types and on
 * every template and choice of the shared DARs.
 */
import assert from 'node:assert/strict';
import Ajv, { type ValidateFunction } from 'ajv';
import config from '../../../src/core/files/ajv-config.json';
import { readDar } from '../../../src/core/daml/lf/archive';
import { checkValue, jsonSchemaFor, skeletonValue, type ValueProblemCode } from '../../../src/core/daml/jsonEncoding';
import { DamlTypes as T, type DamlPackage, type DamlType, type DataType, type QualifiedName } from '../../../src/core/daml/model';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import { printType } from '../../../src/core/daml/types';
import { ALL_DARS, DARS, requireDar, requireDarBytes } from '../../support/dars';

function newAjv(): Ajv {
  const ajv = new Ajv(config.options);
  ajv.addVocabulary(config.annotationKeywords);
  return ajv;
}

// ---------------------------------------------------------------- a hand-built package

const PKG = 'f'.repeat(64);
const at = (name: string): QualifiedName => ({ packageId: PKG, moduleName: 'Shapes', name });
const con = (name: string, ...args: DamlType[]) => T.con(at(name), ...args);
const b = {
  unit: T.builtin('Unit'),
  bool: T.builtin('Bool'),
  int64: T.builtin('Int64'),
  text: T.builtin('Text'),
  party: T.builtin('Party'),
  date: T.builtin('Date'),
  time: T.builtin('Timestamp'),
  optional: (t: DamlType) => T.builtin('Optional', t),
  list: (t: DamlType) => T.builtin('List', t),
  textMap: (t: DamlType) => T.builtin('TextMap', t),
  genMap: (k: DamlType, v: DamlType) => T.builtin('GenMap', k, v),
  contractId: (t: DamlType) => T.builtin('ContractId', t),
};
const star = { kind: 'star' } as const;

const DATA_TYPES: DataType[] = [
  {
    kind: 'record', name: 'Iou', params: [], serializable: true,
    fields: [
      { name: 'issuer', type: b.party },
      { name: 'amount', type: T.numeric(10) },
      { name: 'note', type: b.optional(b.text) },
      { name: 'tags', type: b.list(b.text) },
    ],
  },
  {
    kind: 'variant', name: 'Shape', params: [], serializable: true,
    constructors: [
      { name: 'Circle', type: con('Shape.Circle') },
      { name: 'Square', type: b.int64 },
      { name: 'Dot', type: b.unit },
    ],
  },
  { kind: 'record', name: 'Shape.Circle', params: [], serializable: true, fields: [{ name: 'radius', type: T.numeric(2) }] },
  { kind: 'enum', name: 'Color', params: [], serializable: true, constructors: ['Red', 'Green', 'Blue'] },
  {
    kind: 'variant', name: 'MyList', params: [{ name: 't', kind: star }], serializable: true,
    constructors: [
      { name: 'Nil', type: b.unit },
      { name: 'Cons', type: con('MyList.Cons', T.variable('t')) },
    ],
  },
  {
    kind: 'record', name: 'MyList.Cons', params: [{ name: 't', kind: star }], serializable: true,
    fields: [{ name: 'head', type: T.variable('t') }, { name: 'tail', type: con('MyList', T.variable('t')) }],
  },
  { kind: 'record', name: 'Pair', params: [{ name: 'a', kind: star }, { name: 'b', kind: star }], serializable: true, fields: [{ name: 'fst', type: T.variable('a') }, { name: 'snd', type: T.variable('b') }] },
  { kind: 'interface', name: 'Token', params: [], serializable: false },
  { kind: 'record', name: 'Nested', params: [], serializable: true, fields: [{ name: 'plain', type: b.optional(b.int64) }, { name: 'nested', type: b.optional(b.optional(b.int64)) }] },
];

const HAND_BUILT: DamlPackage = {
  id: PKG, name: 'shapes', version: '1.0.0', lfVersion: '2.1', dependencies: [],
  modules: [{
    name: 'Shapes',
    dataTypes: DATA_TYPES,
    synonyms: [{ name: 'Money', params: [], type: T.numeric(10) }, { name: 'Box', params: [{ name: 'x', kind: star }], type: b.list(T.variable('x')) }],
    templates: [],
    interfaces: [],
  }],
};

interface Case {
  type: DamlType;
  valid: unknown[];
  invalid: Array<[value: unknown, code: ValueProblemCode, path?: string]>;
  /** Invalid values that only the checker refuses (a pattern does not know the lengths of months). */
  checkerOnly?: unknown[];
  /** Values Canton accepts with a caveat: the checker only warns (its first warning has this code), the schema accepts. */
  warned?: Array<[value: unknown, code: ValueProblemCode, path?: string]>;
}

const CID_V1 = `00${'ab'.repeat(32)}`;
const CID_V2 = `01${'cd'.repeat(12)}`;

/** Placeholders are marked ("<Party>", "<Numeric 10>") for the user to fill in: beyond those they must be valid. */
function unfilledOnly(problems: ReturnType<typeof checkValue>): ReturnType<typeof checkValue> {
  return problems.filter((p) => p.code !== 'placeholder');
}

/** A valid value for each marked placeholder, by the type it names. */
function filledValue(placeholder: string): string {
  const type = placeholder.slice(1, -1);
  if (type === 'Party') return 'Alice::1220abcd';
  if (type.startsWith('ContractId')) return CID_V1;
  if (type === 'Int64') return '42';
  if (type.startsWith('Numeric') || type === 'BigNumeric') return '1';
  if (type === 'Date') return '2025-01-31';
  if (type === 'Timestamp') return '2025-01-31T12:00:00Z';
  return 'text';
}

/** The placeholder filled in: every marked placeholder becomes a valid value of the type it names. */
function fillIn(value: unknown): unknown {
  if (typeof value === 'string' && /^<.+>$/.test(value)) return filledValue(value);
  if (Array.isArray(value)) return value.map(fillIn);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillIn(v)]));
  return value;
}

const CASES: Record<string, Case> = {
  Bool: { type: b.bool, valid: [true, false], invalid: [['true', 'wrong-kind'], [0, 'wrong-kind'], [null, 'wrong-kind']] },
  Text: { type: b.text, valid: ['', 'hello'], invalid: [[1, 'wrong-kind'], [{}, 'wrong-kind']] },
  Unit: { type: b.unit, valid: [{}], invalid: [], warned: [[null, 'wrong-kind'], [[], 'wrong-kind'], [{ a: 1 }, 'unknown-field', '/a']] },
  Party: {
    type: b.party,
    valid: ['Alice::1220abcd', 'a', 'with space_-:', 'p'.repeat(255)],
    invalid: [['', 'bad-party'], ['Alice@bank', 'bad-party'], ['Zoë::1220', 'bad-party'], ['p'.repeat(256), 'bad-party'], ['<party-id::1220…>', 'bad-party'], [1, 'wrong-kind']],
  },
  Int64: {
    type: b.int64,
    valid: ['0', '-42', '9223372036854775807', '-9223372036854775808'],
    invalid: [[42, 'bad-int64'], ['4.2', 'bad-int64'], ['', 'bad-int64'], ['12345678901234567890', 'bad-int64'], [true, 'wrong-kind']],
  },
  'Numeric 10': {
    type: T.numeric(10),
    valid: ['1.5', '0', '-0.0000000001', '1.50000000000', '1234567890123456789012345678', '+1.5', '1.'],
    invalid: [['1.00000000001', 'bad-numeric'], ['12345678901234567890123456789', 'bad-numeric'], ['1e5', 'bad-numeric'], ['abc', 'bad-numeric'], [true, 'wrong-kind'], [12345678, 'bad-numeric'], [0.0001, 'bad-numeric'], [-1e7, 'bad-numeric']],
    // Java prints these Doubles with an exponent, which Canton refuses; a JSON Schema cannot tell.
    checkerOnly: [12345678, 0.0001, -1e7],
    warned: [[2.5, 'numeric-as-number'], [3, 'numeric-as-number'], [9999999.5, 'numeric-as-number'], [0.001, 'numeric-as-number'], [0, 'numeric-as-number']],
  },
  'Numeric 0': { type: T.numeric(0), valid: ['7', '-7', '7.0'], invalid: [['7.5', 'bad-numeric']] },
  'Numeric 37': { type: T.numeric(37), valid: ['1.1234567890123456789012345678901234567'], invalid: [['12.5', 'bad-numeric']] },
  Date: { type: b.date, valid: ['2025-01-31', '2024-02-29'], checkerOnly: ['2025-02-30', '2023-02-29'], invalid: [['2025-02-30', 'bad-date'], ['2023-02-29', 'bad-date'], ['2025-13-01', 'bad-date'], ['2025-01-32', 'bad-date'], ['31.01.2025', 'bad-date'], ['2025-01-31T00:00:00Z', 'bad-date']] },
  Timestamp: {
    type: b.time,
    valid: [
      '2025-01-31T12:00:00Z', '2025-01-31T12:00:00.123456Z', '2025-01-31T12:00:00+02:00', '2025-01-31t12:00:00z', '2025-01-31T12:00Z',
      '2025-01-31T12:00:00.5-05:30', '2025-01-31T12:00:00+01:00:30', '2025-01-31T12:00:00+18:00', '2025-01-31T12:00:00Z[UTC]',
      '2025-01-31T12:00:00+01:00[Europe/Zurich]', '2025-01-31T12:00:00.123456000Z',
    ],
    invalid: [
      ['2025-01-31T12:00:00', 'bad-timestamp'], ['2025-01-31T25:00:00Z', 'bad-timestamp'], ['2025-01-31', 'bad-timestamp'], [0, 'wrong-kind'],
      ['2025-01-31T12Z', 'bad-timestamp'], ['2025-01-31T12:00:00+0200', 'bad-timestamp'], ['2025-01-31T12:00:00+02', 'bad-timestamp'], ['2025-01-31T12:00:00+19:00', 'bad-timestamp'],
      ['2025-01-31T12:00:00.1234567890Z', 'bad-timestamp'], ['2025-01-31 12:00:00Z', 'bad-timestamp'], ['2025-01-31T12:00:00[UTC]', 'bad-timestamp'],
    ],
    warned: [['2025-01-31T12:00:00.1234567Z', 'truncated-timestamp'], ['2025-01-31T12:00:00.123456789+01:00', 'truncated-timestamp']],
  },
  'ContractId Iou': {
    type: b.contractId(con('Iou')),
    valid: [CID_V1, `${CID_V1}ca0212`, `${CID_V1}${'00'.repeat(94)}`, CID_V2, `${CID_V2}${'ff'.repeat(33)}`],
    invalid: [
      [{}, 'wrong-kind'], ['', 'bad-contract-id'], ['00abcdef', 'bad-contract-id'], [CID_V1.toUpperCase(), 'bad-contract-id'], [`${CID_V1}a`, 'bad-contract-id'],
      [`02${'ab'.repeat(32)}`, 'bad-contract-id'], [`${CID_V1}${'00'.repeat(95)}`, 'bad-contract-id'], [`${CID_V2}${'ff'.repeat(34)}`, 'bad-contract-id'],
      [`01${'cd'.repeat(11)}`, 'bad-contract-id'], ['#1:0', 'bad-contract-id'], ['<contract-id>', 'bad-contract-id'],
    ],
  },
  record: {
    type: con('Iou'),
    valid: [{ issuer: 'Alice::1220', amount: '10.0', tags: [] }, { issuer: 'A', amount: '1', note: null, tags: ['x'] }, { issuer: 'A', amount: '1', note: 'hi', tags: [] }],
    invalid: [
      [{ issuer: 'A', tags: [] }, 'missing-field', ''],
      [{ issuer: 'A', amount: '1', tags: [], amout: '2' }, 'unknown-field', '/amout'],
      [{ issuer: 'A', amount: '1', tags: [], extra: null }, 'unknown-field', '/extra'],
      [{ issuer: 'A', amount: true, tags: [] }, 'wrong-kind', '/amount'],
      [{ issuer: 'A', amount: '1', tags: [3] }, 'wrong-kind', '/tags/0'],
      [['A', '1'], 'wrong-kind', ''],
    ],
  },
  variant: {
    type: con('Shape'),
    valid: [{ tag: 'Circle', value: { radius: '1.25' } }, { tag: 'Square', value: '4' }, { tag: 'Dot', value: {} }],
    invalid: [
      [{ tag: 'Triangle', value: {} }, 'unknown-constructor', '/tag'],
      [{ tag: 'Dot' }, 'missing-field', ''],
      [{ value: {} }, 'missing-field', ''],
      [{ tag: 'Circle', value: { radius: '1.255' } }, 'bad-numeric', '/value/radius'],
      ['Circle', 'wrong-kind', ''],
    ],
    warned: [[{ tag: 'Square', value: '4', extra: 1 }, 'unknown-field', '/extra']],
  },
  enum: { type: con('Color'), valid: ['Red', 'Blue'], invalid: [['Purple', 'unknown-constructor'], ['red', 'unknown-constructor'], [{ tag: 'Red', value: {} }, 'wrong-kind']] },
  'Optional Int64': { type: b.optional(b.int64), valid: [null, '5'], invalid: [[[], 'wrong-kind'], [['5'], 'wrong-kind'], [5, 'bad-int64']] },
  // Canton's codec reads an array at every level of a nested Optional, the outermost included.
  'Optional (Optional Int64)': {
    type: b.optional(b.optional(b.int64)),
    valid: [[], [[]], [['5']]],
    invalid: [[null, 'wrong-kind'], ['5', 'wrong-kind'], [['5'], 'wrong-kind', '/0'], [[null], 'wrong-kind', '/0'], [[[], []], 'wrong-kind'], [[['5', '6']], 'wrong-kind', '/0'], [[[5]], 'bad-int64', '/0/0']],
  },
  'Optional (Optional (Optional Text))': {
    type: b.optional(b.optional(b.optional(b.text))),
    valid: [[], [[]], [[[]]], [[['x']]]],
    invalid: [[null, 'wrong-kind'], [[['x']], 'wrong-kind', '/0/0'], [[[[[]]]], 'wrong-kind', '/0/0/0']],
  },
  'record with an Optional (Optional Int64) field': {
    type: con('Nested'),
    valid: [{ plain: null, nested: [] }, { nested: [['1']] }],
    invalid: [[{ plain: '1' }, 'missing-field', ''], [{ nested: null }, 'wrong-kind', '/nested']],
  },
  List: { type: b.list(b.party), valid: [[], ['a', 'b']], invalid: [['a', 'wrong-kind'], [[1], 'wrong-kind', '/0']] },
  TextMap: { type: b.textMap(b.int64), valid: [{}, { a: '1', b: '2' }], invalid: [[[['a', '1']], 'wrong-kind'], [{ a: 1 }, 'bad-int64', '/a']] },
  GenMap: {
    type: b.genMap(con('Color'), T.numeric(10)),
    valid: [[], [['Red', '1.0'], ['Blue', '2']]],
    invalid: [[{ Red: '1.0' }, 'wrong-kind'], [[['Red']], 'wrong-kind', '/0'], [[['Pink', '1.0']], 'unknown-constructor', '/0/0'], [[['Red', '1.0', 'x']], 'wrong-kind', '/0']],
  },
  'type parameters': {
    type: con('Pair', b.int64, b.optional(con('Color'))),
    valid: [{ fst: '1', snd: null }, { fst: '1', snd: 'Red' }],
    invalid: [[{ fst: 1, snd: null }, 'bad-int64', '/fst'], [{ fst: '1', snd: 'Pink' }, 'unknown-constructor', '/snd'], [{ snd: null }, 'missing-field']],
  },
  'recursive type': {
    type: con('MyList', b.text),
    valid: [{ tag: 'Nil', value: {} }, { tag: 'Cons', value: { head: 'a', tail: { tag: 'Cons', value: { head: 'b', tail: { tag: 'Nil', value: {} } } } } }],
    invalid: [[{ tag: 'Cons', value: { head: 'a', tail: { tag: 'Cons', value: { head: 1, tail: { tag: 'Nil', value: {} } } } } }, 'wrong-kind', '/value/tail/value/head']],
  },
  synonyms: { type: { kind: 'syn', syn: at('Box'), args: [{ kind: 'syn', syn: at('Money'), args: [] }] }, valid: [['1.5']], invalid: [[['1.12345678901'], 'bad-numeric', '/0']] },
  'interface (not a value)': { type: con('Token'), valid: [], invalid: [[{}, 'not-serializable']] },
};

describe('daml JSON encoding: hand-built types, schema and checker agree', () => {
  const index = new PackageIndex([HAND_BUILT]);

  for (const [name, { type, valid, invalid, checkerOnly = [], warned = [] }] of Object.entries(CASES)) {
    describe(name, () => {
      let validate: ValidateFunction;
      before(() => {
        validate = newAjv().compile(jsonSchemaFor(type, index));
      });

      for (const value of valid) {
        it(`accepts ${JSON.stringify(value)}`, () => {
          assert.deepEqual(checkValue(type, value, index), []);
          assert.ok(validate(value), JSON.stringify(validate.errors));
        });
      }
      for (const [value, code, path] of invalid) {
        it(`refuses ${JSON.stringify(value)} (${code})`, () => {
          const problems = checkValue(type, value, index);
          assert.ok(problems.length > 0, 'the checker refuses it');
          assert.equal(problems[0].code, code, problems[0].message);
          if (path !== undefined) assert.equal(problems[0].path, path);
          if (!checkerOnly.includes(value)) assert.ok(!validate(value), 'the schema refuses it');
        });
      }

      for (const [value, code, path] of warned) {
        it(`accepts ${JSON.stringify(value)} with a warning (${code})`, () => {
          const problems = checkValue(type, value, index);
          assert.ok(problems.length > 0, 'the checker warns');
          assert.deepEqual(problems.map((p) => p.severity), problems.map(() => 'warning'), problems[0].message);
          assert.equal(problems[0].code, code, problems[0].message);
          if (path !== undefined) assert.equal(problems[0].path, path);
          assert.ok(validate(value), JSON.stringify(validate.errors));
        });
      }

      it('has a placeholder value that both accept once its parties and contract ids are filled in', function () {
        if (valid.length === 0) this.skip();
        const placeholder = skeletonValue(type, index);
        assert.deepEqual(unfilledOnly(checkValue(type, placeholder, index)), []);
        const filled = fillIn(placeholder);
        assert.deepEqual(checkValue(type, filled, index), []);
        assert.ok(validate(filled), JSON.stringify(validate.errors));
      });
    });
  }

  it('messages name the Daml type and the field, and unknown fields get the closest known name', () => {
    const [missing] = checkValue(con('Iou'), { issuer: 'A', tags: [] }, index);
    assert.match(missing.message, /"amount" \(Numeric 10\) of Iou/);
    // With what a quick fix inserts for it: the field's placeholder, alone and as the missing fields together.
    assert.deepEqual(missing.data, { field: 'amount', expected: 'Numeric 10', value: '<Numeric 10>', missing: { amount: '<Numeric 10>' } });
    const [typo] = checkValue(con('Iou'), { issuer: 'A', amount: '1', tags: [], isuer: 'B' }, index);
    assert.equal(typo.data?.suggestion, 'issuer');
    const [nullUnknown] = checkValue(con('Iou'), { issuer: 'A', amount: '1', tags: [], gone: null }, index);
    assert.equal(nullUnknown.severity, 'warning', 'Canton accepts unknown fields that are null');
    const [ctor] = checkValue(con('Color'), 'Gren', index);
    assert.equal(ctor.data?.suggestion, 'Green');
    const [wrong] = checkValue(b.optional(b.contractId(con('Iou'))), 3, index);
    assert.match(wrong.message, /Expected ContractId Iou, got the number 3/);
    const [int] = checkValue(b.int64, 7, index);
    assert.equal(int.data?.suggestion, '7');
  });

  it('schema nodes describe the Daml type and the field', () => {
    const schema = jsonSchemaFor(con('Iou'), index, { title: '#shapes:Shapes:Iou' }) as { title: string; description: string; $ref: string; definitions: Record<string, { properties: Record<string, { description: string }>; required: string[] }> };
    assert.equal(schema.title, '#shapes:Shapes:Iou');
    assert.equal(schema.description, 'Iou');
    const iou = schema.definitions[schema.$ref.replace('#/definitions/', '')];
    assert.equal(iou.properties.amount.description, 'amount: Numeric 10');
    assert.equal(iou.properties.note.description, 'note: Optional Text');
    assert.deepEqual(iou.required, ['issuer', 'amount', 'tags'], 'Optional fields may be left out');
  });

  it('a recursive type is one definition referring to itself', () => {
    const schema = jsonSchemaFor(con('MyList', b.text), index) as { definitions: Record<string, unknown> };
    assert.deepEqual(Object.keys(schema.definitions).sort(), ['Shapes.MyList.Cons_Text', 'Shapes.MyList_Text']);
    assert.match(JSON.stringify(schema.definitions['Shapes.MyList.Cons_Text']), /"\$ref":"#\/definitions\/Shapes.MyList_Text"/);
  });

  it('placeholders: the first enum constructor, a non-recursive variant constructor, marked values for Numeric, Party and Text', () => {
    assert.deepEqual(skeletonValue(con('Iou'), index), { issuer: '<Party>', amount: '<Numeric 10>', note: null, tags: [] });
    assert.equal(skeletonValue(con('Color'), index), 'Red');
    assert.deepEqual(skeletonValue(con('MyList', b.int64), index), { tag: 'Nil', value: {} });
    assert.deepEqual(skeletonValue(con('Shape'), index), { tag: 'Circle', value: { radius: '<Numeric 2>' } });
    const first = skeletonValue(b.list(b.text), index) as unknown[];
    first.push('x');
    assert.deepEqual(skeletonValue(b.list(b.text), index), [], 'placeholders are fresh values');
  });

  it('flags a generated placeholder until it is replaced, and never a value typed on purpose', () => {
    const placeholders = checkValue(con('Iou'), skeletonValue(con('Iou'), index), index);
    assert.deepEqual(placeholders.map((p) => [p.code, p.path, p.severity]), [['placeholder', '/issuer', 'error'], ['placeholder', '/amount', 'error']]);
    assert.match(placeholders[1].message, /Numeric 10/);
    // What a user types is judged as a value: "0.0" and an empty Text are values Canton takes.
    assert.deepEqual(checkValue(con('Iou'), { issuer: 'Alice::1220abcd', amount: '0.0', note: '', tags: [] }, index), []);
    for (const type of [b.text, b.party, b.int64, T.numeric(10), b.date, b.time, b.contractId(con('Iou'))]) {
      assert.deepEqual(checkValue(type, skeletonValue(type, index), index).map((p) => p.code), ['placeholder'], printType(type));
    }
    // A placeholder of another type is a wrong value like any other, not a placeholder.
    assert.deepEqual(checkValue(b.text, '<Party>', index), []);
  });

  it('prints types as Daml does', () => {
    assert.equal(printType(b.optional(b.contractId(con('Iou')))), 'Optional (ContractId Iou)');
    assert.equal(printType(T.numeric(10)), 'Numeric 10');
    assert.equal(printType(b.list(b.party)), '[Party]');
    assert.equal(printType(b.genMap(b.text, b.list(b.int64))), 'Map Text [Int64]');
    assert.equal(printType(con('Pair', b.int64, b.optional(b.text))), 'Pair Int64 (Optional Text)');
    assert.equal(printType(con('Pair', b.int64, b.text), { qualified: true }), 'Shapes:Pair Int64 Text');
    assert.equal(printType(b.unit), '()');
    const a = T.variable('a');
    assert.equal(printType(T.builtin('Arrow', T.builtin('Arrow', a, a), T.builtin('List', a))), '(a -> a) -> [a]');
    assert.equal(printType(T.builtin('Arrow', T.variable('f', a), a)), 'f a -> a');
  });

  it('a type from a package that is not known is a warning, and its schema accepts anything', () => {
    const missing = T.con({ packageId: '0'.repeat(64), moduleName: 'Gone', name: 'Gone' });
    const problems = checkValue(missing, { any: 1 }, index);
    assert.deepEqual(problems.map((p) => [p.code, p.severity]), [['unknown-type', 'warning']]);
    assert.ok(newAjv().compile(jsonSchemaFor(missing, index))({ any: 1 }));
  });
});

// ---------------------------------------------------------------- the shared DARs

describe('daml JSON encoding: every template and choice of the shared DARs', () => {
  for (const darName of ALL_DARS) {
    it(`${darName}: schemas compile with ajv, and placeholders pass both schema and checker`, function () {
      const index = new PackageIndex(requireDar(this, darName).packages);
      const ajv = newAjv();
      let checked = 0;
      for (const entry of index.templates()) {
        const types: Array<[string, DamlType]> = [[entry.packageNameForm, T.con(entry.name)]];
        for (const c of index.choices(entry.name) ?? []) types.push([`${entry.packageNameForm} ${c.choice.name}`, c.choice.argType]);
        if (entry.template.keyType) types.push([`${entry.packageNameForm} key`, entry.template.keyType]);
        for (const [what, type] of types) {
          const validate = ajv.compile(jsonSchemaFor(type, index, { title: what }));
          const placeholder = skeletonValue(type, index);
          assert.deepEqual(unfilledOnly(checkValue(type, placeholder, index)), [], `${what}: checker accepts ${JSON.stringify(placeholder)}`);
          const filled = fillIn(placeholder);
          assert.deepEqual(checkValue(type, filled, index), [], `${what}: checker accepts ${JSON.stringify(filled)}`);
          assert.ok(validate(filled), `${what}: schema accepts ${JSON.stringify(filled)}: ${JSON.stringify(validate.errors)}`);
          checked++;
        }
      }
      for (const p of index.packages()) {
        for (const m of p.modules) {
          for (const iface of m.interfaces) {
            const validate = ajv.compile(jsonSchemaFor(iface.viewType, index));
            assert.ok(validate(fillIn(skeletonValue(iface.viewType, index))), `${m.name}:${iface.name} view`);
            checked++;
          }
        }
      }
      assert.ok(checked > 0 || darName === DARS.holding);
    });
  }

  it('Ping: a create argument passes; a typo, a number for Text and a missing party fail in both', function () {
    const index = new PackageIndex(requireDar(this, DARS.ping).packages);
    const ping = T.con(index.resolve('#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping')!);
    const validate = newAjv().compile(jsonSchemaFor(ping, index));
    const good = { id: 'ping-1', initiator: 'alice::1220aa', responder: 'bob::1220bb' };
    assert.deepEqual(checkValue(ping, good, index), []);
    assert.ok(validate(good));
    for (const [bad, code] of [
      [{ ...good, initator: 'x' }, 'unknown-field'],
      [{ ...good, id: 7 }, 'wrong-kind'],
      [{ id: 'p', initiator: 'a' }, 'missing-field'],
    ] as const) {
      assert.equal(checkValue(ping, bad, index)[0]?.code, code);
      assert.ok(!validate(bad));
    }
  });

  it('the definitions-service DAR: DA.Map, lists of records, Numeric 7, dates, recursive MyList and a key', function () {
    const index = new PackageIndex(requireDar(this, DARS.definitions).packages);
    const main = T.con(index.resolve('#DamlDefinitionsServiceMain:MainApp:MainTemplate')!);
    const validate = newAjv().compile(jsonSchemaFor(main, index));
    const good = {
      owner: 'alice::1',
      externalRecord: { tag: 'SomeVariant', value: '3' },
      externalInterface: CID_V1,
      someList: [{ someText: 'x' }],
      someMap: [['k', { someText: 'v' }]],
    };
    assert.deepEqual(checkValue(main, good, index), []);
    assert.ok(validate(good), JSON.stringify(validate.errors));
    const badMap = { ...good, someMap: { k: { someText: 'v' } } };
    assert.equal(checkValue(main, badMap, index)[0]?.code, 'wrong-kind');
    assert.ok(!validate(badMap));

    const builtins = T.con(index.resolve('#DamlDefinitionsServiceMain:MainApp:AllBuiltinTypesTemplate')!);
    const placeholder = fillIn(skeletonValue(builtins, index)) as Record<string, unknown>;
    const withScale8 = { ...placeholder, someNumeric7: '1.12345678' };
    assert.deepEqual(checkValue(builtins, withScale8, index).map((p) => [p.code, p.path]), [['bad-numeric', '/someNumeric7']]);
    assert.deepEqual(checkValue(builtins, { ...placeholder, someNumeric7: '1.1234567' }, index), []);

    const foo = T.con(index.resolve('#DamlDefinitionsServiceDep:ExternalDep:TemplateFoo')!);
    const fooValidate = newAjv().compile(jsonSchemaFor(foo, index));
    const fooValue = {
      someParty: 'p',
      someRecordField: { tag: 'SomeEnum', value: {} },
      someRecordTyped: { foo: { tag: 'SomeVariant', value: '1' } },
      someOptionalRecField: { tag: 'MyCons', value: { head: 'a', tail: { tag: 'Nil', value: {} } } },
    };
    assert.deepEqual(checkValue(foo, fooValue, index), []);
    assert.ok(fooValidate(fooValue), JSON.stringify(fooValidate.errors));
    const badTail = { ...fooValue, someOptionalRecField: { tag: 'MyCons', value: { head: 'a', tail: { tag: 'MyCons', value: { head: 2, tail: { tag: 'Nil', value: {} } } } } } };
    assert.equal(checkValue(foo, badTail, index)[0]?.path, '/someOptionalRecField/value/tail/value/head');
    assert.ok(!fooValidate(badTail));

    const bar = index.template('#DamlDefinitionsServiceDep:ExternalDep:TemplateBar')!;
    assert.equal(printType(bar.keyType!), 'Tuple2 Party (SomeParamRecord Int64)');
  });

  it('the token standard: a HoldingView passes, a Lock with a bad timestamp fails', function () {
    const index = new PackageIndex(requireDar(this, DARS.holding).packages);
    const view = index.interface('#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding')!.viewType;
    const validate = newAjv().compile(jsonSchemaFor(view, index));
    const good = {
      owner: 'alice::1',
      instrumentId: { admin: 'dso::1', id: 'Amulet' },
      amount: '10.5',
      lock: { holders: ['bob::1'], expiresAt: '2026-01-01T00:00:00Z', expiresAfter: null, context: 'locked' },
      meta: { values: { a: 'b' } },
    };
    assert.deepEqual(checkValue(view, good, index), []);
    assert.ok(validate(good), JSON.stringify(validate.errors));
    const bad = { ...good, lock: { ...good.lock, expiresAt: '2026-01-01 00:00' } };
    assert.deepEqual(checkValue(view, bad, index).map((p) => [p.code, p.path]), [['bad-timestamp', '/lock/expiresAt']]);
    assert.ok(!validate(bad));
  });

  it('timing: decoding the largest DAR (printed, not asserted)', function () {
    const bytes = requireDarBytes(this, DARS.amulet);
    readDar(bytes);
    const start = performance.now();
    const { packages } = readDar(bytes);
    console.log(`      decode of ${DARS.amulet} (${packages.length} packages, ${bytes.length} bytes): ${(performance.now() - start).toFixed(1)} ms`);
  });
});
