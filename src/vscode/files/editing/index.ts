import * as vscode from 'vscode';
import type { Logger } from '../../../core/log';
import type { ConnectionManager } from '../../connections/manager';
import type { ErrorReporter } from '../../ui';
import { FileQuickFixes } from './codeActions';
import { ConnectionFacts } from './connectionFacts';
import { FileDiagnostics } from './diagnostics';
import { NewFileCommands } from './newFile';

/** The files users write, `*.commands.json` and `*.vetting.json`: diagnostics, quick fixes, New … File. */
const FILE_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.{commands,vetting}.json' },
  { scheme: 'untitled', pattern: '**/*.{commands,vetting}.json' },
  { scheme: 'vscode-remote', pattern: '**/*.{commands,vetting}.json' },
];

/** Everything editing registers; each returned disposable belongs in context.subscriptions. */
export function registerFileEditing(connections: ConnectionManager, logger: Logger, errors: ErrorReporter): vscode.Disposable[] {
  const diagnostics = new FileDiagnostics();
  const facts = new ConnectionFacts(connections, logger);
  return [
    diagnostics,
    facts,
    vscode.languages.registerCodeActionsProvider(FILE_SELECTOR, new FileQuickFixes(diagnostics, facts), FileQuickFixes.metadata),
    ...new NewFileCommands(facts, errors, logger).register(),
  ];
}
