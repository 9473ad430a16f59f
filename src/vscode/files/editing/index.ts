import vscode = require('vscode');
import type { Logger } from '../../../core/log';
import type { ConnectionManager } from '../../connections/manager';
import type { CommandRegistry } from '../../kit/registry';
import type { Prompts } from '../../kit/prompts';
import { FileQuickFixes } from './codeActions';
import { ConnectionFacts } from './connectionFacts';
import { DamlAssist } from './damlAssist';
import { EditorVersions } from './preferredVersions';
import { FileDiagnostics } from './diagnostics';
import type { LedgerPackages } from '../../kit/ledgerPackages';
import { NewFileCommands } from './newFile';

/** The files users write, `*.commands.json` and `*.vetting.json`: diagnostics, quick fixes, New … File. */
const FILE_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.{commands,vetting}.json' },
  { scheme: 'untitled', pattern: '**/*.{commands,vetting}.json' },
  { scheme: 'vscode-remote', pattern: '**/*.{commands,vetting}.json' },
];

const COMMANDS_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.commands.json' },
  { scheme: 'untitled', pattern: '**/*.commands.json' },
  { scheme: 'vscode-remote', pattern: '**/*.commands.json' },
];

/** Everything editing registers; each returned disposable belongs in context.subscriptions. */
export function registerFileEditing(commands: CommandRegistry, connections: ConnectionManager, packages: LedgerPackages, logger: Logger, prompts: Prompts): vscode.Disposable[] {
  const diagnostics = new FileDiagnostics(packages);
  // One set of answers for the template picker, completions and hovers.
  const versions = new EditorVersions(connections);
  const assist = new DamlAssist(packages, connections, versions);
  const facts = new ConnectionFacts(connections, logger);
  new NewFileCommands(facts, packages, logger, prompts, versions).register(commands);
  return [
    versions,
    diagnostics,
    vscode.languages.registerCodeActionsProvider(FILE_SELECTOR, new FileQuickFixes(diagnostics, facts), FileQuickFixes.metadata),
    // Inside strings (template ids, choices, constructors) and after ':' the JSON language's own triggers do not fire.
    vscode.languages.registerCompletionItemProvider(COMMANDS_SELECTOR, assist, '"', ':'),
    vscode.languages.registerHoverProvider(COMMANDS_SELECTOR, assist),
  ];
}
