// The URI schemes of the extension's read-only documents, apart from their providers: the entry
// (src/extension.ts) registers stand-ins for them without loading the features.

/** The read-only JSON documents the extension shows (updates, events, submit results). */
export const DOCUMENT_SCHEME = 'canton-ledger';

/** The read-only Markdown reports (vetting diffs). */
export const REPORT_SCHEME = 'canton-ledger-report';

/** The read-only Markdown compatibility reports of connections. */
export const COMPAT_REPORT_SCHEME = 'canton-ledger-compat';

/** The graph panels' view type (their serializer restores them after a reload). */
export { GRAPH_VIEW_TYPE } from '../../core/graph/viewProtocol';
