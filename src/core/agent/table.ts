/**
 * The one table of tools for coding agents: VS Code's language-model tools (`src/vscode/agent`,
 * `contributes.languageModelTools`, checked both ways by a test) and the MCP server
 * (`canton-ledger mcp`) are both made from it, so a new tool is one entry here.
 */
import { activeContractsTool, comparePartiesTool, contractEventsTool, failedCommandsTool, ledgerStatusTool, listUpdatesTool, packagesTool, pqsQueryTool, transactionGraphTool, validateFileTool } from './reads';
import type { AgentTool } from './tool';
import { applyVettingTool, previewCommandsTool, submitCommandsTool, uploadDarTool } from './writes';

/** Reads first (an agent tries them first); the writes last, each marked `write`. */
export const AGENT_TOOLS: readonly AgentTool[] = [
  ledgerStatusTool,
  listUpdatesTool,
  transactionGraphTool,
  contractEventsTool,
  activeContractsTool,
  packagesTool,
  failedCommandsTool,
  comparePartiesTool,
  pqsQueryTool,
  validateFileTool,
  previewCommandsTool,
  submitCommandsTool,
  applyVettingTool,
  uploadDarTool,
];

export function agentTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((t) => t.name === name);
}
