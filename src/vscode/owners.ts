// Which feature owns each command and view (src/vscode/<feature>/), for the entry's stand-ins: the
// first use of one loads its feature alone (src/features.ts). Kept compact, since the entry parses it
// in every window: a command `cantonLedger.<group>.<name>` and a view `cantonLedger.<group>` belong to
// their group's feature, but for a few exceptions; what neither names is the host's.
// `test/vscode/featureOwners.test.ts` activates each feature alone and checks this against what it registers.

import { COMPAT_REPORT_SCHEME, DOCUMENT_SCHEME, GRAPH_VIEW_TYPE, REPORT_SCHEME } from './kit/schemes';

/** Loaded with the host: the Connections feature and the host's own commands. */
export const HOST = 'connections';

const GROUP_OWNERS: Readonly<Record<string, string>> = {
  activeContracts: 'updates',
  compareParties: 'compare',
  contractEvents: 'updates',
  demoNetwork: 'network',
  failedCommands: 'failures',
  files: 'files',
  graph: 'graph',
  item: 'updates',
  network: 'network',
  packages: 'packages',
  pqs: 'pqs',
  scripts: 'scripts',
  submissions: 'files',
  updates: 'updates',
  vettedPackages: 'packages',
};

/** Commands of a group that another feature registers. */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  'cantonLedger.connections.addLocalNet': 'localnet',
  'cantonLedger.connections.showCompatibilityReport': 'compat',
  'cantonLedger.packages.uploadDar': 'files',
  'cantonLedger.updates.compareParties': 'compare',
};

/** The feature that registers a command or view. */
export function ownerOf(id: string): string {
  return EXCEPTIONS[id] ?? GROUP_OWNERS[id.split('.')[1]] ?? HOST;
}

/** The read-only documents: the JSON documents are the host's, the reports the file sending's and the compatibility check's. */
export const SCHEME_OWNERS: Readonly<Record<string, string>> = { [DOCUMENT_SCHEME]: HOST, [REPORT_SCHEME]: 'files', [COMPAT_REPORT_SCHEME]: 'compat' };

export const WEBVIEW_OWNERS: Readonly<Record<string, string>> = { [GRAPH_VIEW_TYPE]: 'graph' };

/** The language-model tools' feature. */
export const TOOL_OWNER = 'agent';

/** The features an open Canton file needs: its checks and sending; a ledger script's tests; a PQS query's CodeLens. */
export function fileFeatures(uri: { path: string }): readonly string[] {
  if (/\.pqs\.sql$/i.test(uri.path)) return ['pqs'];
  if (/\.ledger\.json$/i.test(uri.path)) return ['files', 'scripts'];
  return ['files'];
}
