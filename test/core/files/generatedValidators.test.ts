/**
 * The schema files themselves and the standalone validators that scripts/build-schemas.mjs generates
 * from them: the generated code must be current, must not compile anything at run time, and must behave
 * exactly like ajv compiling the schemas now.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import config from '../../../src/core/files/ajv-config.json';
import { exampleRequests, invalidCorpus, validCorpus } from '../../fixtures/files/corpus';
import { REPO_ROOT } from '../../support/spec';
import type { FileKind } from '../../../src/core/files/validate';

type Schema = Record<string, unknown>;
type ValidatorName = keyof typeof config.schemas;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { withoutKeywords } = require('../../../scripts/schema-transforms.cjs') as { withoutKeywords(schema: unknown, keywords: string[]): Schema };

const GENERATED = join(REPO_ROOT, 'src/core/files/generated/validators.js');
const VALIDATOR_OF_KIND: Record<FileKind, ValidatorName> = { commands: 'validateCommands', vetting: 'validateVetting', script: 'validateScript' };

const schemaText = (name: ValidatorName) => readFileSync(join(REPO_ROOT, config.schemas[name]), 'utf8');
const schemaOf = (name: ValidatorName) => JSON.parse(schemaText(name)) as Schema;
const validatorNames = Object.keys(config.schemas) as ValidatorName[];

/** Compiles the schemas now, with the options the build script uses (`documented`: not stripped of their documentation). */
function runtimeAjv(documented = false): Ajv {
  const ajv = new Ajv(config.options);
  ajv.addVocabulary(config.annotationKeywords);
  for (const name of validatorNames) ajv.addSchema(documented ? schemaOf(name) : withoutKeywords(schemaOf(name), config.documentationKeywords), name);
  return ajv;
}

function generatedModule(): Record<string, unknown> {
  assert.ok(existsSync(GENERATED), `${GENERATED} is missing: run \`node scripts/build-schemas.mjs\` (part of npm run build)`);
  return require(GENERATED) as Record<string, unknown>;
}

describe('schema: files and generated validators', () => {
  describe('generated standalone validators', () => {
    it('exist and were generated from the current schemas and options', () => {
      const hash = createHash('sha256');
      hash.update(readFileSync(join(REPO_ROOT, 'src/core/files/ajv-config.json'), 'utf8'));
      for (const name of validatorNames) hash.update(schemaText(name));
      assert.equal(generatedModule().sourceHash, hash.digest('hex'), 'stale build: run `node scripts/build-schemas.mjs`');
    });

    it('need only ajv\'s small runtime helpers, not the compiler', () => {
      const required = [...readFileSync(GENERATED, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      assert.deepEqual(
        required.filter((path) => !path.startsWith('ajv/dist/runtime/')),
        [],
      );
    });

    it('carry no documentation (hovers and snippets are the editor schemas\' business)', () => {
      const code = readFileSync(GENERATED, 'utf8');
      for (const keyword of ['markdownDescription', 'defaultSnippets', 'enumDescriptions']) assert.ok(!code.includes(keyword), keyword);
    });

    it('behave exactly like ajv compiling the schemas at run time, on every corpus file', () => {
      const ajv = runtimeAjv();
      const documented = runtimeAjv(true);
      const generated = generatedModule();
      const files = [...validCorpus(), ...exampleRequests(), ...invalidCorpus()];
      let withErrors = 0;
      for (const file of files) {
        let value: unknown;
        try {
          value = JSON.parse(file.text);
        } catch {
          continue; // syntax-error files never reach a validator
        }
        const name = VALIDATOR_OF_KIND[file.kind];
        const fresh = ajv.getSchema(name)!;
        const built = generated[name] as ValidateFunction;
        assert.equal(built(value), fresh(value), file.name);
        assert.deepEqual(comparable(built.errors), comparable(fresh.errors), file.name);
        // Leaving the documentation out changes no verdict and no error.
        const full = documented.getSchema(name)!;
        assert.equal(full(value), fresh(value), file.name);
        assert.deepEqual(comparable(full.errors).map(({ parentSchema: _, ...e }) => e), comparable(fresh.errors).map(({ parentSchema: _, ...e }) => e), file.name);
        if (fresh.errors?.length) withErrors++;
      }
      assert.ok(withErrors >= 10, `only ${withErrors} corpus files fail the schema: the comparison would prove little`);
    });
  });

  describe('schema files', () => {
    for (const name of validatorNames) {
      describe(config.schemas[name], () => {
        const schema = schemaOf(name);

        it('are valid draft-07 schemas and compile in ajv strict mode', () => {
          assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
          const ajv = runtimeAjv();
          assert.equal(ajv.validateSchema(schema), true, JSON.stringify(ajv.errors));
          assert.equal(typeof ajv.getSchema(name), 'function');
        });

        it('describe every definition, field and variant case, in plain text and markdown', () => {
          const undocumented: string[] = [];
          for (const { node, pointer } of schemaNodes(schema)) {
            const isNamed = /\/(properties|definitions)\/[^/]+$/.test(pointer) || pointer === '';
            if (isNamed && !(hasDocs(node) || hasDocs(resolve(schema, node)))) undocumented.push(pointer);
          }
          assert.deepEqual(undocumented, []);
        });

        it('describe every enum value', () => {
          for (const { node, pointer } of schemaNodes(schema)) {
            if (!Array.isArray(node.enum)) continue;
            assert.equal((node.enumDescriptions as unknown[] | undefined)?.length, node.enum.length, pointer);
            assert.equal((node.markdownEnumDescriptions as unknown[] | undefined)?.length, node.enum.length, pointer);
          }
        });

        it('never offer the API\'s "unset" values (Empty cases, *_UNSPECIFIED)', () => {
          const text = schemaText(name);
          assert.doesNotMatch(text, /"Empty"\s*:/);
          assert.doesNotMatch(text, /"[A-Z_]+_UNSPECIFIED"/);
        });

        it('offer a snippet for every case of every variant', () => {
          let variants = 0;
          for (const { node, pointer } of schemaNodes(schema)) {
            if (!isVariant(node)) continue;
            variants++;
            const snippets = (node.defaultSnippets as Array<{ label: string; body: Schema }> | undefined) ?? [];
            for (const caseName of Object.keys(node.properties as Schema)) {
              const snippet = snippets.find((s) => s.label === caseName);
              assert.ok(snippet, `${pointer}: no snippet for ${caseName}`);
              assert.deepEqual(Object.keys(snippet.body), [caseName], `${pointer}: snippet ${caseName}`);
            }
          }
          // A ledger script has no variant of its own: its commands are the commands file's.
          assert.ok(variants >= (name === 'validateScript' ? 0 : 2));
        });

        it('have snippets that are valid once filled in, apart from placeholder formats', () => {
          const ajv = runtimeAjv();
          let checked = 0;
          for (const { node, pointer } of schemaNodes(schema)) {
            for (const snippet of (node.defaultSnippets as Array<{ label: string; body: unknown }> | undefined) ?? []) {
              const validate = ajv.getSchema(`${name}#${pointer}`)!;
              validate(fillIn(snippet.body));
              // Placeholders such as "party::1220..." fail formats on purpose; `if` and `propertyNames` only
              // summarise such nested errors.
              const errors = (validate.errors ?? []).filter((e) => !['pattern', 'if', 'propertyNames'].includes(e.keyword));
              assert.deepEqual(
                errors.map((e) => `${e.instancePath} ${e.message}`),
                [],
                `${pointer || '(root)'} snippet "${snippet.label}"`,
              );
              checked++;
            }
          }
          assert.ok(checked >= (name === 'validateScript' ? 1 : 5));
        });
      });
    }

    it('offer snippets for each command kind and each vetting change', () => {
      const labels = (schema: Schema, definition: string) =>
        ((schema.definitions as Record<string, Schema>)[definition].defaultSnippets as Array<{ label: string }>).map((s) => s.label);
      assert.deepEqual(labels(schemaOf('validateCommands'), 'Command'), [
        'CreateCommand',
        'ExerciseCommand',
        'CreateAndExerciseCommand',
        'ExerciseByKeyCommand',
      ]);
      assert.deepEqual(labels(schemaOf('validateVetting'), 'VettedPackagesChange'), ['Vet', 'Unvet']);
    });

    it('say where contract keys come from (Daml-LF 2.3, Canton 3.6) on ExerciseByKeyCommand and its snippet', () => {
      const definitions = schemaOf('validateCommands').definitions as Record<string, Schema>;
      const snippet = (definitions.Command.defaultSnippets as Array<{ label: string; markdownDescription: string }>).find((x) => x.label === 'ExerciseByKeyCommand')!;
      for (const text of [definitions.ExerciseByKeyCommand.description, definitions.ExerciseByKeyCommand.markdownDescription, snippet.markdownDescription] as string[]) {
        assert.match(text, /Daml-LF 2\.3/);
        assert.match(text, /Canton 3\.6/);
        assert.doesNotMatch(text, /not (yet )?available/);
      }
    });
  });
});

/** The parts of ajv errors that matter, in a form deepEqual can compare across the two validators. */
function comparable(errors: ErrorObject[] | null | undefined) {
  return (errors ?? []).map(({ instancePath, schemaPath, keyword, params, message, propertyName, parentSchema }) => ({
    instancePath,
    schemaPath,
    keyword,
    params,
    message,
    propertyName,
    parentSchema,
  }));
}

/** Every schema object in a schema document that describes part of a file (so not `if` conditions), with its JSON pointer. */
function* schemaNodes(node: unknown, pointer = ''): Generator<{ node: Schema; pointer: string }> {
  if (!isObject(node)) return;
  yield { node, pointer };
  for (const key of ['properties', 'definitions', 'dependencies']) {
    for (const [name, child] of Object.entries((node[key] as Schema | undefined) ?? {})) yield* schemaNodes(child, `${pointer}/${key}/${name}`);
  }
  for (const key of ['items', 'additionalProperties', 'propertyNames', 'then', 'else']) yield* schemaNodes(node[key], `${pointer}/${key}`);
  for (const [index, child] of ((node.anyOf as unknown[] | undefined) ?? []).entries()) yield* schemaNodes(child, `${pointer}/anyOf/${index}`);
}

function resolve(root: Schema, node: Schema): Schema {
  const name = typeof node.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  return name ? (root.definitions as Record<string, Schema>)[name] : node;
}

function hasDocs(node: Schema): boolean {
  return typeof node.description === 'string' && node.description.length > 10 && typeof node.markdownDescription === 'string';
}

function isVariant(node: Schema): boolean {
  return node.minProperties === 1 && node.maxProperties === 1 && node.additionalProperties === false;
}

/** A VS Code snippet body as the user gets it with the defaults accepted: `${1:x}` → `x`, `"^30"` → `30`. */
function fillIn(body: unknown): unknown {
  const text = (s: string) => s.replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/\$\d+/g, '');
  if (typeof body === 'string') return body.startsWith('^') ? JSON.parse(text(body.slice(1))) : text(body);
  if (Array.isArray(body)) return body.map(fillIn);
  if (isObject(body)) return Object.fromEntries(Object.entries(body).map(([k, v]) => [text(k), fillIn(v)]));
  return body;
}

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('schema transforms: withoutKeywords', () => {
  it('drops keywords wherever a schema appears, and keeps properties and data that share their names', () => {
    const schema = {
      description: 'top',
      type: 'object',
      properties: { description: { type: 'string', description: 'a field named description' }, title: { enum: ['description'] } },
      anyOf: [{ required: ['description'], title: 'x' }],
      defaultSnippets: [{ body: { description: '' } }],
      $defs: { markdownDescription: { const: { title: 1 }, markdownDescription: 'y' } },
    };
    assert.deepEqual(withoutKeywords(schema, ['description', 'title', 'markdownDescription', 'defaultSnippets']), {
      type: 'object',
      properties: { description: { type: 'string' }, title: { enum: ['description'] } },
      anyOf: [{ required: ['description'] }],
      $defs: { markdownDescription: { const: { title: 1 } } },
    });
  });
});
