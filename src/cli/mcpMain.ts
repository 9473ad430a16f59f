/**
 * The MCP server alone, as the extension runs it for VS Code's agents (`node dist/mcp.js
 * [--allow-writes]`): `canton-ledger mcp` with the same options and environment, built into a
 * bundle of its own that holds no other command (the demo participant's above all), so the .vsix
 * ships this instead of the whole CLI.
 */
import { mcpCommand } from './commands/mcp';
import { runCommand, runExecutable, type CliIo, type Env } from './runner';

/** `argv` are the arguments after the script: `mcp`'s options (and the global ones), without the command name. */
export function runMcp(argv: readonly string[], env: Env, io: CliIo): Promise<number> {
  return runCommand([mcpCommand], [mcpCommand.name, ...argv], env, io);
}

if (require.main === module) runExecutable(runMcp);
