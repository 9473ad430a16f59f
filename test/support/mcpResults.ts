import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The text parts of an MCP tool result, joined by lines. */
export function textOf(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
