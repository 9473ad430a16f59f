/**
 * The messages between the graph panel (extension host) and its webview. Plain data both ways; the
 * webview keeps the last document in its saved state, so that a reloaded window draws it again.
 */
import type { GraphDocument } from './document';

export type ToWebview =
  | { type: 'loading'; title: string; detail: string }
  | { type: 'document'; document: GraphDocument }
  | { type: 'error'; title: string; message: string; code?: string; hint?: string }
  /** The ledger moved on since this was drawn (a lineage may have grown). */
  | { type: 'stale'; text: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'retry' }
  | { type: 'openContract'; contractId: string }
  | { type: 'openNode'; nodeId: number }
  | { type: 'openUpdate' }
  | { type: 'lineage'; contractId: string }
  | { type: 'export'; format: 'mermaid' | 'dot' | 'text' }
  | { type: 'saveSvg'; svg: string }
  | { type: 'more' };

/** What the webview keeps across reloads (vscode.setState). */
export interface SavedGraphState {
  /** Which graph: the panel re-reads it on Retry. */
  target: GraphTarget;
  connectionId?: string;
  document?: GraphDocument;
  collapsed: string[];
  lens: [string | undefined, string | undefined];
  view?: { x: number; y: number; scale: number };
  selected?: string;
}

export type GraphTarget =
  | { kind: 'transaction'; updateId?: string; offset?: number }
  | { kind: 'lineage'; contractId: string; maxDistance?: number }
  | { kind: 'range-diff'; beginExclusive: number; endInclusive: number }
  /** A preview's prepared transaction: drawn from what the preview decoded, nothing to read. */
  | { kind: 'preview'; commandId: string; preparedAt: string }
  /** A preview beside the transaction its commands committed: the committed one is read, the preview's is held. */
  | { kind: 'comparison'; commandId: string; preparedAt: string; updateId: string };

export const GRAPH_VIEW_TYPE = 'cantonLedger.graph';
