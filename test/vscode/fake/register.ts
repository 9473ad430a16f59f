// Loaded by mocha (.mocharc.json `require`): `require('vscode')` in the glue under test resolves to the
// fake in ./vscode.ts. Only the module name 'vscode' is redirected; nothing else changes.
import Module = require('node:module');
import path = require('node:path');

const FAKE = path.join(__dirname, 'vscode.ts');
type Resolve = (request: string, ...rest: unknown[]) => string;
const resolver = Module as unknown as { _resolveFilename: Resolve };
const original = resolver._resolveFilename;
resolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? FAKE : original.call(this, request, ...rest);
};
