/**
 * Calling a tool of the table, the same for every front-end: the input checked against the tool's
 * schema, the call, and its result bounded and redacted. Nothing here throws at the caller: a bad
 * input, a refused write, a participant that is down, a file that does not exist all come back as an
 * error result that says what to do, so that neither the MCP server nor the extension host falls over.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { CancelledError, LedgerError } from '../errors';
import { Redactor } from '../redact';
import { boundedData, boundedText } from './bounds';
import { agentTool } from './table';
import type { AgentContext, AgentTool, ToolResult } from './tool';
import { explainedFailure } from './writes';

/** Whether a write may run: `confirmed` once the front-end has had it confirmed (VS Code) or was started allowing writes (MCP). */
export type WritePermission = 'confirmed' | 'refused';

export interface InvokeOptions {
  writes: WritePermission;
}

/** A tool's input that does not fit its schema. */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
  constructor(
    readonly tool: string,
    /** The input field at fault as a JSON pointer (`/limit`), or '' for the input as a whole. */
    readonly field: string,
    readonly problems: readonly string[],
  ) {
    super(`The input does not fit ${tool}'s schema: ${problems.join('; ')}`);
  }
}

let ajv: Ajv | undefined;
const validators = new WeakMap<AgentTool, ValidateFunction>();

function validatorOf(tool: AgentTool): ValidateFunction {
  let v = validators.get(tool);
  if (!v) {
    ajv ??= new Ajv({ allErrors: true, strict: false });
    v = ajv.compile(tool.inputSchema);
    validators.set(tool, v);
  }
  return v;
}

function problemText(e: ErrorObject): string {
  const field = e.instancePath || (e.keyword === 'required' ? `/${String((e.params as { missingProperty?: string }).missingProperty)}` : e.keyword === 'additionalProperties' ? `/${String((e.params as { additionalProperty?: string }).additionalProperty)}` : '');
  const what = e.keyword === 'additionalProperties' ? 'is not an input of this tool' : e.keyword === 'enum' ? `must be one of ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((x) => JSON.stringify(x)).join(', ')}` : (e.message ?? 'is not valid');
  return `${field || 'the input'} ${what}`;
}

/** The input checked against the tool's schema: the value, or a ToolInputError naming each field at fault. */
export function checkToolInput(tool: AgentTool, input: unknown): Record<string, unknown> {
  const value = input === undefined || input === null ? {} : input;
  const validate = validatorOf(tool);
  if (validate(value)) return value as Record<string, unknown>;
  const errors = validate.errors ?? [];
  throw new ToolInputError(tool.name, errors[0]?.instancePath ?? '', errors.map(problemText));
}

/** Runs a tool by name: never throws (a cancel aside, which the caller asked for). */
export async function invokeAgentTool(name: string, input: unknown, ctx: AgentContext, o: InvokeOptions): Promise<ToolResult> {
  const redactor = redactorOf(ctx);
  const tool = agentTool(name);
  let result: ToolResult;
  try {
    if (!tool) throw new ToolInputError(name, '', [`there is no tool ${name}`]);
    const checked = checkToolInput(tool, input);
    if (tool.access === 'write' && o.writes !== 'confirmed') result = writeRefused(tool);
    else result = await tool.run(ctx, checked);
  } catch (e) {
    if (e instanceof CancelledError && ctx.signal?.aborted) throw e;
    result = errorResult(e);
  }
  return cleanResult(result, redactor);
}

/** The confirmation text of a write (what exactly is sent), redacted; an error's text when it cannot be made. */
export async function describeAgentWrite(tool: AgentTool, input: unknown, ctx: AgentContext): Promise<{ text: string; ok: boolean }> {
  const redactor = redactorOf(ctx);
  try {
    const checked = checkToolInput(tool, input);
    const text = tool.describeWrite ? await tool.describeWrite(ctx, checked) : `${tool.title}: ${JSON.stringify(checked)}`;
    return { text: redactor.redact(text), ok: true };
  } catch (e) {
    return { text: redactor.redact(errorResult(e).text), ok: false };
  }
}

/** The front-end's redactor (which knows the secrets it read), else one of its own; the context's secrets registered. */
function redactorOf(ctx: AgentContext): Redactor {
  const redactor = ctx.redactor ?? new Redactor();
  for (const s of ctx.secrets ?? []) redactor.register(s);
  return redactor;
}

function writeRefused(tool: AgentTool): ToolResult {
  return {
    text: `${tool.name} writes to the ledger, and writes are not allowed here: the MCP server runs read-only unless it is started with --allow-writes (in VS Code, writes need the setting cantonLedger.agentTools.allowWrites and the user's confirmation). Nothing was sent.`,
    data: { refused: true, tool: tool.name, reason: 'writes-not-allowed' },
    isError: true,
  };
}

/** A failure as a result an agent can act on: what went wrong, the field or the hint, and the Canton explanation where there is one. */
export function errorResult(e: unknown): ToolResult {
  if (e instanceof ToolInputError) return { text: `${e.message}. Nothing was sent.`, data: { error: 'invalid-input', tool: e.tool, field: e.field, problems: e.problems }, isError: true };
  if (e instanceof LedgerError) {
    const explained = explainedFailure(e);
    const field = (e as { field?: unknown }).field;
    return {
      text: explained ?? `${e.message}\nHint: ${e.hint}`,
      data: { error: e.kind, message: e.message, hint: e.hint, ...(typeof field === 'string' ? { field } : {}), ...(typeof (e as { code?: unknown }).code === 'string' ? { code: (e as { code?: string }).code } : {}) },
      isError: true,
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { text: message, data: { error: e instanceof Error ? e.name : 'error', message }, isError: true };
}

/** Redacted (the known secrets and every credential shape) and bounded, text and data alike. */
function cleanResult(r: ToolResult, redactor: Redactor): ToolResult {
  const text = boundedText(redactor.redact(r.text));
  let data: unknown;
  try {
    data = JSON.parse(redactor.redact(JSON.stringify(boundedData(r.data) ?? null)));
  } catch {
    data = { note: 'The structured data could not be shown safely; the text carries the answer.' };
  }
  return { text, data, ...(r.isError ? { isError: true } : {}) };
}
