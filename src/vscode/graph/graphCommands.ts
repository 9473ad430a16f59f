/**
 * Show Transaction Graph, Show Contract Lineage and Show Active Contract Changes: from a row of the
 * ledger views (its update, offset or contract), a submission, or the palette (asked for).
 */
import type { TrafficCostEstimate } from '../../core/trafficCost';
import vscode = require('vscode');
import { transactionDocument } from '../../core/graph/document';
import { previewGraph } from '../../core/graph/preview';
import { transactionKeyOf } from '../../core/graph/read';
import type { PreparedPreview } from '../../core/preview/model';
import { GRAPH_VIEW_TYPE, type GraphTarget } from '../../core/graph/viewProtocol';
import { LedgerConnection } from '../../core/ledger/connection';
import { looksLikeContractId } from '../../core/models/contracts';
import { parseOffsetRange } from '../../core/updates/compare';
import { Commands } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import type { ConnectionManager } from '../connections/manager';
import type { IDisposable } from '../kit/lifecycle';
import { GraphPanels, type GraphPanelsDeps } from './graphPanels';

/**
 * What a row, a submission or a command argument carries: its update, offset or contract, and the
 * connection it belongs to when it knows it (a script step's transaction is on the connection the
 * script ran on, whichever is active now).
 */
export interface GraphCarrier {
  updateId?: string;
  offset?: number;
  contractId?: string;
  connection?: LedgerConnection;
}

function carried(arg: unknown): GraphCarrier {
  if (typeof arg === 'string') return looksLikeContractId(arg) ? { contractId: arg } : { ...transactionKeyOf(arg) };
  if (typeof arg !== 'object' || arg === null) return {};
  const o = arg as { row?: GraphCarrier; opts?: { values?: GraphCarrier } } & GraphCarrier;
  const from = o.row ?? o.opts?.values ?? o;
  return { updateId: from.updateId, offset: from.offset, contractId: from.contractId, connection: o.connection instanceof LedgerConnection ? o.connection : undefined };
}

const RECENT = 100;

/** What a preview's CodeLens hands over: the decoded transaction, when it was prepared, and the participant's cost estimate. */
interface PreparedArgument {
  preview: PreparedPreview;
  preparedAt: string;
  costEstimate?: TrafficCostEstimate;
}

export function registerGraphs(commands: CommandRegistry, deps: GraphPanelsDeps & { connections: ConnectionManager }): { panels: GraphPanels; registrations: IDisposable[] } {
  const panels = new GraphPanels(deps);
  /** The connection the argument carries (as it is now), else the active one, else asked once. */
  const connection = async (purpose: string, own?: LedgerConnection): Promise<LedgerConnection | undefined> => {
    const carriedConnection = own && deps.connections.current(own);
    if (carriedConnection) return carriedConnection;
    const active = deps.connections.activeConnection();
    if (active) return active;
    await commands.targets.resolve(undefined, { purpose });
    return deps.connections.activeConnection();
  };

  const showTransaction = async (arg?: unknown) => {
    // A preview's CodeLens hands over the prepared transaction it decoded.
    const prepared = typeof arg === 'object' && arg !== null ? (arg as { prepared?: PreparedArgument }).prepared : undefined;
    if (prepared) {
      const { preview, preparedAt, costEstimate } = prepared;
      return panels.showDocument({ kind: 'preview', commandId: preview.commandId, preparedAt }, transactionDocument(previewGraph(preview, costEstimate), `Preview of ${preview.commandId}`));
    }
    const from = carried(arg);
    let { updateId, offset } = from;
    if (!updateId && offset === undefined) {
      const text = await deps.prompts.input({
        title: 'Show Transaction Graph',
        prompt: 'The update id or the offset of a transaction',
        ignoreFocusOut: true,
        validateInput: (v) => (v.trim() ? undefined : 'An update id (1220…) or an offset (42)'),
      });
      if (text === undefined) return undefined;
      ({ updateId, offset } = { updateId: undefined, offset: undefined, ...transactionKeyOf(text) });
    }
    const c = await connection('draw the transaction', from.connection);
    if (!c) return undefined;
    const target: GraphTarget = updateId ? { kind: 'transaction', updateId } : { kind: 'transaction', offset };
    return panels.show(target, c);
  };

  const showLineage = async (arg?: unknown) => {
    const from = carried(arg);
    let { contractId } = from;
    if (!contractId) {
      contractId = await deps.prompts.input({
        title: 'Show Contract Lineage',
        prompt: 'Where did this contract come from, and what became of it?',
        placeHolder: '00…',
        ignoreFocusOut: true,
        validateInput: (v) => (looksLikeContractId(v) ? undefined : 'A contract id: 00 or 01 and at least 64 hex digits'),
      });
      if (contractId === undefined) return undefined;
      contractId = contractId.trim();
    }
    const c = await connection('walk the lineage', from.connection);
    if (!c) return undefined;
    return panels.show({ kind: 'lineage', contractId }, c);
  };

  const showRangeDiff = async (arg?: unknown) => {
    const c = await connection('read the range');
    if (!c) return undefined;
    const end = (await c.ledger?.refreshLedgerEnd().catch(() => undefined)) ?? c.ledger?.ledgerEnd ?? 0;
    let range = typeof arg === 'string' ? parseOffsetRange(arg, end) : undefined;
    if (!range || 'problem' in range) {
      const text = await deps.prompts.input({
        title: 'Show Active Contract Changes',
        prompt: `First and last offset, both included (the ledger ends at ${end})`,
        value: `${Math.max(1, end - RECENT + 1)}-${end}`,
        ignoreFocusOut: true,
        validateInput: (v) => {
          const r = parseOffsetRange(v, end);
          return 'problem' in r ? r.problem : undefined;
        },
      });
      if (text === undefined) return undefined;
      range = parseOffsetRange(text, end);
      if ('problem' in range) return undefined;
    }
    return panels.show({ kind: 'range-diff', ...range }, c);
  };

  /** A submitted preview's CodeLens hands over what the preview decoded and the update its commands committed. */
  const comparePreview = async (arg?: unknown) => {
    const { prepared, updateId } = (typeof arg === 'object' && arg !== null ? arg : {}) as { prepared?: PreparedArgument; updateId?: string };
    if (!prepared || !updateId) {
      await deps.prompts.message('error', 'Compare from a preview whose commands were submitted: its "Compare with Committed" lens above the preview.', []);
      return undefined;
    }
    const c = await connection('read the committed transaction');
    if (!c) return undefined;
    const { preview, preparedAt, costEstimate } = prepared;
    return panels.showComparison({ kind: 'comparison', commandId: preview.commandId, preparedAt, updateId }, previewGraph(preview, costEstimate), c);
  };

  // The registry holds these and disposes them with the other commands.
  commands.register(Commands.showTransactionGraph, showTransaction);
  commands.register(Commands.showContractLineage, showLineage);
  commands.register(Commands.showRangeDiff, showRangeDiff);
  commands.register(Commands.comparePreviewWithCommitted, comparePreview);
  return { panels, registrations: [panels, vscode.window.registerWebviewPanelSerializer(GRAPH_VIEW_TYPE, panels)] };
}
