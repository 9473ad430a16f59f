// Which feature owns each command and view (src/vscode/<feature>/), for the entry's stand-ins: the
// first use of one loads its feature alone (src/features.ts). `test/vscode/featureOwners.test.ts`
// activates each feature alone and checks this table against what it registers.

import { DOCUMENT_SCHEME, GRAPH_VIEW_TYPE, REPORT_SCHEME } from './kit/schemes';

/** Loaded with the host: the Connections feature and the host's own commands. */
export const HOST = 'connections';

export const COMMAND_OWNERS: Readonly<Record<string, string>> = {
  'cantonLedger.activeContracts.exercise': 'updates',
  'cantonLedger.activeContracts.filter': 'updates',
  'cantonLedger.activeContracts.loadMore': 'updates',
  'cantonLedger.activeContracts.refresh': 'updates',
  'cantonLedger.activeContracts.showAtLedgerEnd': 'updates',
  'cantonLedger.activeContracts.showAtOffset': 'updates',
  'cantonLedger.compareParties.close': 'compare',
  'cantonLedger.compareParties.refresh': 'compare',
  'cantonLedger.connections.add': 'connections',
  'cantonLedger.connections.cancelConnect': 'connections',
  'cantonLedger.connections.connect': 'connections',
  'cantonLedger.connections.copyUrl': 'connections',
  'cantonLedger.connections.copyValue': 'connections',
  'cantonLedger.connections.disconnect': 'connections',
  'cantonLedger.connections.edit': 'connections',
  'cantonLedger.connections.refresh': 'connections',
  'cantonLedger.connections.remove': 'connections',
  'cantonLedger.connections.select': 'connections',
  'cantonLedger.connections.setActive': 'connections',
  'cantonLedger.contractEvents.changeFormat': 'updates',
  'cantonLedger.contractEvents.clearHistory': 'updates',
  'cantonLedger.contractEvents.refresh': 'updates',
  'cantonLedger.contractEvents.show': 'updates',
  'cantonLedger.contractEvents.showAtCursor': 'updates',
  'cantonLedger.demo.start': 'connections',
  'cantonLedger.demo.stop': 'connections',
  'cantonLedger.failedCommands.explain': 'failures',
  'cantonLedger.failedCommands.goToCause': 'failures',
  'cantonLedger.failedCommands.loadMore': 'failures',
  'cantonLedger.failedCommands.readFrom': 'failures',
  'cantonLedger.failedCommands.refresh': 'failures',
  'cantonLedger.failedCommands.toggleSucceeded': 'failures',
  'cantonLedger.files.newCommands': 'files',
  'cantonLedger.files.newLedgerScript': 'files',
  'cantonLedger.files.newVetting': 'files',
  'cantonLedger.files.preview': 'files',
  'cantonLedger.files.submit': 'files',
  'cantonLedger.files.submitPreviewed': 'files',
  'cantonLedger.files.vettingApply': 'files',
  'cantonLedger.files.vettingDryRun': 'files',
  'cantonLedger.graph.comparePreview': 'graph',
  'cantonLedger.graph.showLineage': 'graph',
  'cantonLedger.graph.showRangeDiff': 'graph',
  'cantonLedger.graph.showTransaction': 'graph',
  'cantonLedger.item.copyContractId': 'updates',
  'cantonLedger.item.copyOffset': 'updates',
  'cantonLedger.item.copyPackageId': 'updates',
  'cantonLedger.item.copyTemplateId': 'updates',
  'cantonLedger.item.copyUpdateId': 'updates',
  'cantonLedger.item.copyValue': 'updates',
  'cantonLedger.item.openJson': 'updates',
  'cantonLedger.item.openRawJson': 'updates',
  'cantonLedger.packages.newCommandsFile': 'packages',
  'cantonLedger.packages.refresh': 'packages',
  'cantonLedger.packages.uploadDar': 'files',
  'cantonLedger.pqs.connect': 'pqs',
  'cantonLedger.pqs.copySuggestedIndex': 'pqs',
  'cantonLedger.pqs.disconnect': 'pqs',
  'cantonLedger.pqs.explainFile': 'pqs',
  'cantonLedger.pqs.filter': 'pqs',
  'cantonLedger.pqs.loadMore': 'pqs',
  'cantonLedger.pqs.pin': 'pqs',
  'cantonLedger.pqs.refresh': 'pqs',
  'cantonLedger.pqs.runFile': 'pqs',
  'cantonLedger.pqs.setUpDemo': 'pqs',
  'cantonLedger.scripts.openStepResult': 'scripts',
  'cantonLedger.scripts.run': 'scripts',
  'cantonLedger.scripts.showStepGraph': 'scripts',
  'cantonLedger.showLog': 'connections',
  'cantonLedger.submissions.clear': 'files',
  'cantonLedger.submissions.copyCommandId': 'files',
  'cantonLedger.submissions.lookUp': 'files',
  'cantonLedger.submissions.openResult': 'files',
  'cantonLedger.submissions.resubmit': 'files',
  'cantonLedger.submissions.retry': 'files',
  'cantonLedger.token.clear': 'connections',
  'cantonLedger.token.set': 'connections',
  'cantonLedger.updates.compareParties': 'compare',
  'cantonLedger.updates.filter': 'updates',
  'cantonLedger.updates.loadMore': 'updates',
  'cantonLedger.updates.refresh': 'updates',
  'cantonLedger.updates.resetFilter': 'updates',
  'cantonLedger.updates.restartLiveTail': 'updates',
  'cantonLedger.updates.reveal': 'updates',
  'cantonLedger.updates.startLiveTail': 'updates',
  'cantonLedger.updates.stopLiveTail': 'updates',
  'cantonLedger.vettedPackages.newVettingFile': 'packages',
  'cantonLedger.vettedPackages.refresh': 'packages',
};

export const VIEW_OWNERS: Readonly<Record<string, string>> = {
  'cantonLedger.activeContracts': 'updates',
  'cantonLedger.compareParties': 'compare',
  'cantonLedger.connections': 'connections',
  'cantonLedger.contractEvents': 'updates',
  'cantonLedger.failedCommands': 'failures',
  'cantonLedger.packages': 'packages',
  'cantonLedger.pqs': 'pqs',
  'cantonLedger.submissions': 'files',
  'cantonLedger.updates': 'updates',
  'cantonLedger.vettedPackages': 'packages',
};

/** The read-only documents: the JSON documents are the host's, the reports the file sending's. */
export const SCHEME_OWNERS: Readonly<Record<string, string>> = { [DOCUMENT_SCHEME]: HOST, [REPORT_SCHEME]: 'files' };

export const WEBVIEW_OWNERS: Readonly<Record<string, string>> = { [GRAPH_VIEW_TYPE]: 'graph' };

/** The features an open Canton file needs: its checks and sending; a ledger script's tests; a PQS query's CodeLens. */
export function fileFeatures(uri: { path: string }): readonly string[] {
  if (/\.pqs\.sql$/i.test(uri.path)) return ['pqs'];
  if (/\.ledger\.json$/i.test(uri.path)) return ['files', 'scripts'];
  return ['files'];
}
