// The generated commands files of the validation and Daml measurements (workers/validate.ts, workers/daml.ts).

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
