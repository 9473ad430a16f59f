/** The files a tool reads (a commands, vetting or DAR file the agent names): resolved, read within limits, refused clearly. */
import { basename, isAbsolute, resolve } from 'node:path';
import { RequestValidationError } from '../errors';
import { FILE_KIND_SUFFIXES, fileKindOf, fileKindSuffix, type FileKind } from '../files/validate';
import { FileRefusedError, MAX_DAR_BYTES, MAX_JSON_FILE_BYTES, readRegularFile } from '../localFile';
import type { AgentContext, ToolInputSchema } from './tool';

/** The `file` input of the tools that read one. */
export const FILE_PROPERTY = { type: 'string', minLength: 1, description: 'The file: an absolute path, or relative to the workspace folder (the MCP server: its working directory).' } as const;

/** The input of a tool that takes one file and nothing else. */
export const ONE_FILE_INPUT: ToolInputSchema = { type: 'object', properties: { file: FILE_PROPERTY }, required: ['file'], additionalProperties: false };

export interface AgentFile {
  /** The path as the agent gave it (what results name). */
  path: string;
  text: string;
}

/** The file's kind by its name; a clear error naming the suffixes when it has none (or not `expected`). */
export function fileKindOfPath(path: string, expected?: FileKind): FileKind {
  const kind = fileKindOf(basename(path));
  if (!kind) throw new RequestValidationError('file', `${path}: the name must end in ${FILE_KIND_SUFFIXES.join(' or ')}, so that its kind is known.`);
  if (expected && kind !== expected) throw new RequestValidationError('file', `This tool takes a ${fileKindSuffix(expected)} file, not ${path}.`);
  return kind;
}

export function readAgentFile(ctx: AgentContext, path: string, as: 'json'): Promise<AgentFile>;
export function readAgentFile(ctx: AgentContext, path: string, as: 'bytes'): Promise<{ path: string; bytes: Uint8Array }>;
export async function readAgentFile(ctx: AgentContext, path: string, as: 'json' | 'bytes'): Promise<AgentFile | { path: string; bytes: Uint8Array }> {
  const full = isAbsolute(path) ? path : resolve(ctx.baseDir, path);
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(full, as === 'json' ? MAX_JSON_FILE_BYTES : MAX_DAR_BYTES);
  } catch (e) {
    if (e instanceof FileRefusedError) throw new RequestValidationError('file', `Cannot read ${e.message}.`);
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new RequestValidationError('file', `Cannot read ${path}: ${code === 'ENOENT' ? `no such file (looked in ${ctx.baseDir} for a relative path)` : code}.`);
  }
  // As VS Code reads a text file: UTF-8, a byte-order mark dropped.
  return as === 'json' ? { path, text: new TextDecoder().decode(bytes) } : { path, bytes };
}
