/**
 * The commandId of a commands file, found in its text and replaced by a fresh one: the edit touches
 * only the id's string, so the rest of the file (layout, key order, other values) stays byte for byte.
 * Deduplication keys on the commandId, so a fresh one is how the same commands run once more.
 */
import { randomUUID } from 'node:crypto';
import type { Node } from 'jsonc-parser';
import type { TextEdit } from './fixes';
import { JsonDocument } from './jsonDocument';

/** Where a commands file's commandId string is (offsets into the text), and its value. */
export interface CommandIdSite {
  offset: number;
  length: number;
  commandId: string;
}

/**
 * The commandId of the file's JsCommands: at the top of a bare JsCommands, or in `commands` of a whole
 * submit request (the same two shapes the request builder reads). Undefined when the text has no
 * string commandId there (then there is nothing to replace; the file's checks say what is missing).
 */
export function commandIdSite(text: string): CommandIdSite | undefined {
  const doc = new JsonDocument(text);
  const root = doc.root;
  if (root?.type !== 'object') return undefined;
  const wrapped = doc.propertyNode(root, 'commands')?.children?.[1];
  const owner: Node = wrapped?.type === 'object' ? wrapped : root;
  const value = doc.propertyNode(owner, 'commandId')?.children?.[1];
  if (value?.type !== 'string') return undefined;
  return { offset: value.offset, length: value.length, commandId: value.value as string };
}

/** The edit that gives the file `commandId` (default: a random UUID); undefined when the file has no commandId to replace. */
export function newCommandIdEdit(text: string, commandId: string = randomUUID()): { edit: TextEdit; commandId: string } | undefined {
  const site = commandIdSite(text);
  if (!site) return undefined;
  return { edit: { offset: site.offset, length: site.length, newText: JSON.stringify(commandId) }, commandId };
}

