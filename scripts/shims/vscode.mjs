// The one place the bundle imports VS Code's API: every source module's `import * as vscode from
// 'vscode'` resolves here (scripts/build.mjs), so esbuild's interop copies the API object once instead
// of once per importing module (30 copies of its ~350 keys cost 7–9 ms of activation).
export * from 'vscode';
