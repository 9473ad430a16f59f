/**
 * Daml packages: decoding a DAR and generating the JSON schema of every template and choice argument
 * (what the editor builds for completions, hovers and checks), next to reading the DAR's bytes; and the
 * cost of argument diagnostics on every change of a commands file, next to the envelope's checks alone.
 */
import { readFileSync } from 'node:fs';
import { readDar } from '../../../src/core/daml/lf/archive';
import { jsonSchemaFor } from '../../../src/core/daml/jsonEncoding';
import { PackageIndex } from '../../../src/core/daml/packageIndex';
import { validateText } from '../../../src/core/files/validate';
import { CATALOG } from '../../../src/participant/catalog';
import { commandsFileOfSize } from '../commandsFile';
import { median, workerMain } from '../lib';

export interface DamlInput {
  dar: string;
  reps: number;
  /** Size of the commands file for the diagnostics, in bytes. */
  commandsBytes: number;
  validateReps: number;
}

export interface DamlOutput {
  darBytes: number;
  packages: number;
  templates: number;
  schemas: number;
  /** Median of reading the DAR's bytes from disk. */
  readMs: number;
  /** Median of decoding every package of the DAR, indexing them and generating every schema. */
  decodeAndSchemasMs: number;
  commands: { bytes: number; commands: number; problemsWith: number; problemsWithout: number; withMs: number; withoutMs: number };
}

/** Decodes the DAR, indexes it and generates the schema of every template's and choice's argument. */
function decodeAndSchemas(bytes: Uint8Array): { packages: number; templates: number; schemas: number } {
  const index = new PackageIndex(readDar(bytes).packages);
  const templates = index.templates();
  let schemas = 0;
  for (const t of templates) {
    jsonSchemaFor({ kind: 'con', con: t.name, args: [] }, index, { title: t.packageNameForm });
    schemas++;
    for (const c of index.choices(t.name) ?? []) {
      jsonSchemaFor(c.choice.argType, index);
      schemas++;
    }
  }
  return { packages: index.packages().length, templates: templates.length, schemas };
}

workerMain<DamlInput, DamlOutput>(async (input) => {
  // The first runs compile and warm up, as the editor's would after the first file.
  const warm = (xs: number[]) => median(xs.slice(Math.min(3, xs.length - 1)));
  const read: number[] = [];
  const decode: number[] = [];
  let bytes: Uint8Array = readFileSync(input.dar);
  let counts = decodeAndSchemas(bytes);
  for (let i = 0; i < input.reps; i++) {
    let t0 = performance.now();
    bytes = readFileSync(input.dar);
    read.push(performance.now() - t0);
    t0 = performance.now();
    counts = decodeAndSchemas(bytes);
    decode.push(performance.now() - t0);
  }

  // The generated file creates and exercises the demo participant's Iou: checked against its real types.
  const packages = { packages: new PackageIndex(CATALOG.map((p) => p.signature)), source: 'the demo participant' };
  const { text, commands } = commandsFileOfSize(input.commandsBytes);
  const withPackages: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < input.validateReps; i++) {
    let t0 = performance.now();
    validateText('commands', text, { packages });
    withPackages.push(performance.now() - t0);
    t0 = performance.now();
    validateText('commands', text);
    without.push(performance.now() - t0);
  }
  return {
    darBytes: bytes.byteLength,
    ...counts,
    readMs: warm(read),
    decodeAndSchemasMs: warm(decode),
    commands: {
      bytes: Buffer.byteLength(text),
      commands,
      problemsWith: validateText('commands', text, { packages }).problems.length,
      problemsWithout: validateText('commands', text).problems.length,
      withMs: warm(withPackages),
      withoutMs: warm(without),
    },
  };
});
