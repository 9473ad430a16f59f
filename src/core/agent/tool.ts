/**
 * What a tool for coding agents is: one entry of the table (`table.ts`) that feeds both VS Code's
 * language-model tools and the MCP server. Each entry names the core function it calls through a
 * `LedgerConnection`, the same functions the CLI and the views call.
 */
import type { LedgerClient } from '../api/client';
import type { readDar } from '../daml/lf/archive';
import type { LedgerConnection, ParticipantInfo } from '../ledger/connection';
import type { PqsStore } from '../pqs/store';
import type { Redactor } from '../redact';
import type * as wire from '../models/wire';
import type { PreparedReading } from '../preview/decode';

/** A JSON Schema (draft-07) object, as VS Code's `languageModelTools` and MCP's `inputSchema` take it. */
export type ToolInputSchema = { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };

/** The decoders a tool may need, handed in: the extension keeps them in bundles of their own (dist/preview.js, dist/daml.js). */
export interface AgentDecoders {
  readPreparedAnswer(): (raw: wire.JsPrepareSubmissionResponse) => Pick<PreparedReading, 'preview' | 'hash'>;
  readDar(): typeof readDar;
}

/** What a tool runs with: the connection it answers from, and the ports of the front-end that calls it. */
export interface AgentContext {
  connection: LedgerConnection;
  signal?: AbortSignal;
  /** Where a relative file path is resolved (the workspace folder, the MCP server's working directory). */
  baseDir: string;
  decoders: AgentDecoders;
  /** The PQS store beside the participant, when one is attached; undefined: the PQS tool says how to attach one. */
  pqs?: () => PqsStore | undefined;
  /** Secrets the front-end knows (the token): masked in every result, beside the redactor's shapes. */
  secrets?: readonly string[];
  /** The front-end's redactor, which knows the secrets it has read (the extension's SecretStore registers each); default a new one. */
  redactor?: Redactor;
}

/** What a tool answers: text an agent reads, the same as plain data beside it. */
export interface ToolResult {
  text: string;
  data: unknown;
  /** The call failed (bad input, a refusal, a failure of the participant): the text says what to do. */
  isError?: boolean;
}

export type ToolAccess = 'read' | 'write';

export interface AgentTool<Input = Record<string, unknown>> {
  /** `canton_…`: a language-model tool's name and an MCP tool's name alike. */
  name: string;
  /** A short title for people (VS Code's display name, MCP's title). */
  title: string;
  /** What it answers and when to use it, written for a model. */
  description: string;
  inputSchema: ToolInputSchema;
  access: ToolAccess;
  run(ctx: AgentContext, input: Input): Promise<ToolResult>;
  /**
   * A write's confirmation: exactly what will be sent (the file, the parties, the preview where there
   * is one), read before anything is sent. Every write tool has one.
   */
  describeWrite?(ctx: AgentContext, input: Input): Promise<string>;
}

/** A tool's input, checked against its schema before `run`: typed per tool by the entry's generic. */
export function defineTool<Input>(tool: AgentTool<Input>): AgentTool<Record<string, unknown>> {
  return tool as unknown as AgentTool<Record<string, unknown>>;
}

/** The connection's facts: connects first when it is not connected (a tool call is a first use like any other). */
export async function connectedInfo(ctx: AgentContext): Promise<ParticipantInfo> {
  const state = ctx.connection.state;
  if (state.state === 'connected') return state.info;
  return ctx.connection.connect(ctx.signal);
}

export function clientOf(ctx: AgentContext): LedgerClient {
  return ctx.connection.client;
}
