// The baseline of the extension-cost benchmark (test/bench/extensionCost.mjs): what `yo code` generates
// for a JavaScript extension, one command that shows a message. Activated on demand (its command), like
// Canton Ledger Explorer (workspaceContains / onLanguage), never by `*`.
const vscode = require('vscode');

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  console.log('Congratulations, your extension "hello-world" is now active!');
  const disposable = vscode.commands.registerCommand('benchHelloWorld.helloWorld', () => {
    vscode.window.showInformationMessage('Hello World from hello-world!');
  });
  context.subscriptions.push(disposable);
}

function deactivate() {}

module.exports = { activate, deactivate };
