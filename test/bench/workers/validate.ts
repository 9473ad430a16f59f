/**
 * Validation speed: what the editor's diagnostics run on every change (the core's validateText:
 * parse with positions, schema, Canton's own checks) on generated commands files of a given size,
 * next to JSON.parse of the same text.
 */
import { validateText } from '../../../src/core/schema/validate';
import { median, workerMain } from '../lib';

export interface ValidateInput {
  sizes: number[];
  reps: number;
}

export interface ValidateOutput {
  files: Array<{ bytes: number; commands: number; problems: number; oursMs: number; jsonParseMs: number }>;
}

const PARTY = (name: string) => `${name}::1220${'ab12cd34'.repeat(8)}`;

/** A valid, realistic JsCommands file of at least `bytes`: a batch of Iou creations and exercises. */
export function commandsFileOfSize(bytes: number): { text: string; commands: number } {
  const commands: unknown[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const command =
      i % 3 === 2
        ? { ExerciseCommand: { templateId: '#demo-iou:Iou:Iou', contractId: `00${(i * 2654435761).toString(16).padStart(8, '0').repeat(17)}`, choice: 'Iou_Transfer', choiceArgument: { newOwner: PARTY('Bob') } } }
        : {
            CreateCommand: {
              templateId: '#demo-iou:Iou:Iou',
              createArguments: { issuer: PARTY('Bank'), owner: PARTY('Alice'), currency: ['USD', 'EUR', 'CHF'][i % 3], amount: `${1000 + i}.0000000000`, observers: [PARTY('Charlie')] },
            },
          };
    commands.push(command);
    size += JSON.stringify(command, null, 2).length + 4;
  }
  const file = { commands, commandId: '0f9b7c52-3c8e-4d0e-9b39-7d1f2a4c6e10', userId: 'alice', actAs: [PARTY('Bank')], readAs: [], workflowId: 'bench' };
  return { text: JSON.stringify(file, null, 2) + '\n', commands: commands.length };
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
