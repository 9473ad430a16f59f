/**
 * What the ledger views show, as plain rows (no `vscode` here): the presentation model that the rows
 * of updates, contracts, packages and comparisons are built into. The tree views in src/vscode map
 * rows to TreeItems one to one.
 */

export type RowKind =
  | 'update.transaction' | 'update.reassignment' | 'update.topology' | 'update.checkpoint' | 'update.unknown'
  | 'event.created' | 'event.archived' | 'event.exercised' | 'event.assigned' | 'event.unassigned' | 'event.topology'
  | 'contract' | 'synchronizer' | 'package' | 'detail' | 'group' | 'value'
  | 'module' | 'template' | 'interface' | 'choice'
  | 'compare.update' | 'compare.event'
  | 'failedCommand.failed' | 'failedCommand.succeeded'
  /** A link under a failed command whose cause is a contract: its lineage graph, its Contract Events. */
  | 'failedCommand.lineage' | 'failedCommand.events'
  /** The Network view: a participant, a party it hosts. */
  | 'network.participant' | 'network.party';

export interface JsonView {
  /** Tab title, without `.json`. */
  name: string;
  /** The decoded, readable form. */
  value: unknown;
  /** Exactly what the participant sent. */
  raw: unknown;
}

export interface LedgerRow {
  /** Unique among its siblings; a tree id is the path of keys. */
  key: string;
  kind: RowKind;
  label: string;
  description?: string;
  /** Markdown. */
  tooltip?: string;
  /** A codicon id. */
  icon?: string;
  /** A theme colour id for the icon (what differs, in Compare Parties). */
  iconColor?: string;
  /** Lazily built: a view with thousands of updates builds event rows only when expanded. */
  children?: () => LedgerRow[];
  expanded?: boolean;
  contractId?: string;
  updateId?: string;
  offset?: number;
  packageId?: string;
  synchronizerId?: string;
  /** What "Copy Value" copies from a detail row. */
  copyValue?: string;
  /** A template (or interface) id in package-name form: "Copy Template ID", "New Commands File". */
  templateId?: string;
  /** A choice of `templateId`: "New Commands File" writes an ExerciseCommand of it. */
  choice?: string;
  /** What selecting the row opens. */
  json?: JsonView;
}
