/** The CLI's environment variables: read by `canton-ledger`, set by the extension when it starts the CLI (its MCP server). */
export const URL_ENV = 'CANTON_LEDGER_URL';
export const TOKEN_ENV = 'CANTON_LEDGER_TOKEN';

/** How the extension runs the CLI's MCP server (`dist/mcp.js`) for a connection: what VS Code's MCP server definition holds. */
export interface McpServerLaunch {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The MCP server for the active profile (none without one, or with the agent tools off): its URL in the
 * environment, `--allow-writes` when the settings allow writes. No token: it is added only when the
 * server starts. The extension host's binary is Electron in the desktop editor: ELECTRON_RUN_AS_NODE runs it as plain Node.
 */
export function mcpServerLaunch(
  profile: { name: string; url: string } | undefined,
  settings: { enabled: boolean; allowWrites: boolean },
  paths: { nodePath: string; serverPath: string },
): McpServerLaunch | undefined {
  if (!profile || !settings.enabled) return undefined;
  return {
    label: `Canton Ledger (${profile.name})`,
    command: paths.nodePath,
    args: [paths.serverPath, ...(settings.allowWrites ? ['--allow-writes'] : [])],
    env: { [URL_ENV]: profile.url, ELECTRON_RUN_AS_NODE: '1' },
  };
}
