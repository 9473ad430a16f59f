/**
 * Validation speed: what the editor's diagnostics run on every change (the core's validateText:
 * parse with positions, schema, Canton's own checks) on generated commands files of a given size,
 * next to JSON.parse of the same text.
 */
import { validateText } from '../../../src/core/files/validate';
import { commandsFileOfSize } from '../commandsFile';
import { median, workerMain } from '../lib';

export interface ValidateInput {
  sizes: number[];
  reps: number;
}

export interface ValidateOutput {
  files: Array<{ bytes: number; commands: number; problems: number; oursMs: number; jsonParseMs: number }>;
}

workerMain<ValidateInput, ValidateOutput>(async (input) => {
  const files: ValidateOutput['files'] = [];
  for (const target of input.sizes) {
    const { text, commands } = commandsFileOfSize(target);
    const problems = validateText('commands', text).problems.length;
    const ours: number[] = [];
    const json: number[] = [];
    for (let i = 0; i < input.reps; i++) {
      let t0 = performance.now();
      validateText('commands', text);
      ours.push(performance.now() - t0);
      t0 = performance.now();
      JSON.parse(text);
      json.push(performance.now() - t0);
    }
    // The first runs compile and warm up; an editor validates the same kind of file again and again.
    const warm = (xs: number[]) => median(xs.slice(Math.min(5, xs.length - 1)));
    files.push({ bytes: Buffer.byteLength(text), commands, problems, oursMs: warm(ours), jsonParseMs: warm(json) });
  }
  return { files };
});
