/**
 * `mcp`: the tools for coding agents (the core's table, `core/agent`) as an MCP server over stdio,
 * built on the official SDK's `Server` (the low-level one: the table's input schemas are JSON
 * Schemas already, handed to clients as they are). Read-only unless started with --allow-writes.
 */
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../../package.json';
import { describeAgentWrite, invokeAgentTool } from '../../core/agent/invoke';
import { AGENT_TOOLS, agentTool } from '../../core/agent/table';
import type { AgentContext, ToolResult } from '../../core/agent/tool';
import { readDar } from '../../core/daml/lf/archive';
import { readPreparedAnswer } from '../../core/preview/decode';
import { expectPositionals, flag } from '../args';
import { EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';

const NAME = 'mcp';

export const mcpCommand: Command = {
  name: NAME,
  synopsis: 'mcp [--allow-writes]',
  summary: 'Serve the ledger to coding agents: an MCP server on stdio with the same tools as the editor',
  details: [
    'Speaks the Model Context Protocol on stdin/stdout (configure it as a stdio server in an MCP client),',
    'with one tool per question the editor answers: the ledger status, a page of updates, a transaction',
    'and its graph, contract events, active contracts, packages with Daml types, failed commands, Compare',
    'Parties, validate and preview a commands file. Every answer is bounded (a page, counts and how to get',
    'the next) and redacted: the token never appears in a tool result.',
    'The participant and token come from the environment as for every command (--url or CANTON_LEDGER_URL,',
    'CANTON_LEDGER_TOKEN); relative file paths are resolved in the working directory.',
    '--allow-writes     also run the writing tools (submit a commands file, apply a vetting file, upload a',
    '                   DAR); each result then names what it sent. Without it they answer an error and send',
    '                   nothing.',
    'Logs go to stderr (--verbose: each request). The server stops when stdin closes or on Ctrl-C.',
  ],
  options: { 'allow-writes': { type: 'boolean' } },
  async run(ctx, args) {
    expectPositionals(args, NAME, '', 0);
    const server = mcpServer(ctx, { allowWrites: flag(args.values, 'allow-writes') });
    const stdin = (ctx.io.stdin ?? process.stdin) as Readable;
    const transport = new StdioServerTransport(stdin, ctx.io.stdout as Writable);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    const stop = () => void server.close();
    ctx.signal?.addEventListener('abort', stop, { once: true });
    // The transport reads stdin to its end: a client that goes away ends the server.
    stdin.once('end', stop);
    await server.connect(transport);
    ctx.err(`canton-ledger mcp: serving ${AGENT_TOOLS.length} tools for ${ctx.globals.url} on stdio (${flag(args.values, 'allow-writes') ? 'writes allowed' : 'read-only'})`);
    await closed;
    ctx.signal?.removeEventListener('abort', stop);
    ctx.connection().dispose();
    return EXIT_OK;
  },
};

/** The MCP server over the table, answering from the CLI's connection (its URL and token from the environment). */
export function mcpServer(ctx: CliContext, o: { allowWrites: boolean }): Server {
  const server = new Server({ name: 'canton-ledger', title: 'Canton Ledger Explorer', version }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: { title: t.title, readOnlyHint: t.access === 'read', destructiveHint: t.access === 'write', openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = agentTool(request.params.name);
    // An unknown tool is a protocol error, not a result (MCP 2025-11-25, server/tools, Error Handling);
    // an input that does not fit a tool's schema is a result with isError, which a model can act on.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}. The tools are ${AGENT_TOOLS.map((t) => t.name).join(', ')}.`);
    const agentCtx = contextOf(ctx, extra.signal);
    const writes = o.allowWrites ? 'confirmed' : 'refused';
    // A write names what it sends, read before sending (the confirmation an editor would show).
    const sent = tool.access === 'write' && o.allowWrites ? await describeAgentWrite(tool, request.params.arguments, agentCtx) : undefined;
    if (sent) ctx.err(`canton-ledger mcp: ${tool.name}: ${sent.text.split('\n')[0]}`);
    const result = await invokeAgentTool(request.params.name, request.params.arguments, agentCtx, { writes });
    return mcpResult(result, sent?.ok ? sent.text : undefined);
  });
  return server;
}

function contextOf(ctx: CliContext, requestSignal: AbortSignal): AgentContext {
  return {
    connection: ctx.connection(),
    signal: ctx.signal ? AbortSignal.any([ctx.signal, requestSignal]) : requestSignal,
    baseDir: process.cwd(),
    decoders: { readPreparedAnswer: () => readPreparedAnswer, readDar: () => readDar },
    secrets: ctx.token ? [ctx.token] : [],
  };
}

/**
 * A tool result as MCP's: the text, the data as structured content (an object) with the text in it as
 * well, a failure as `isError` (never a protocol error). The text goes into the structured content
 * because a client may hand the model that alone: VS Code does, when a result has structured content
 * (its MCP tool's invoke, 1.139), and the text is where a tool explains (a failure's cause, the next page).
 */
function mcpResult(r: ToolResult, sent: string | undefined): CallToolResult {
  const data = r.data !== null && typeof r.data === 'object' && !Array.isArray(r.data) ? (r.data as Record<string, unknown>) : { value: r.data };
  const text = sent ? `Sent — ${sent}\n\n${r.text}` : r.text;
  return {
    content: [{ type: 'text', text }],
    structuredContent: { text, ...data },
    ...(r.isError ? { isError: true } : {}),
  };
}
