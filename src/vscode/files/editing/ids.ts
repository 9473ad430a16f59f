/** Command ids and names of the editing support for `*.commands.json` / `*.vetting.json` (package.json lists the same). */
export const EditingCommands = {
  newCommandsFile: 'cantonLedger.files.newCommands',
  newVettingFile: 'cantonLedger.files.newVetting',
} as const;

/** The `source` of every diagnostic the extension publishes for these files. */
export const DIAGNOSTIC_SOURCE = 'Canton Ledger';
