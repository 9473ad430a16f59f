/**
 * Every command id the extension registers, in one place. package.json contributes exactly these
 * (test/vscode/commandMap.test.ts checks both ways), and every registration goes through
 * `CommandRegistry` with an id from here.
 */
export const Commands = {
  // Connections
  addConnection: 'cantonLedger.connections.add',
  selectConnection: 'cantonLedger.connections.select',
  refreshConnections: 'cantonLedger.connections.refresh',
  connect: 'cantonLedger.connections.connect',
  cancelConnect: 'cantonLedger.connections.cancelConnect',
  disconnect: 'cantonLedger.connections.disconnect',
  setActive: 'cantonLedger.connections.setActive',
  editConnection: 'cantonLedger.connections.edit',
  removeConnection: 'cantonLedger.connections.remove',
  copyUrl: 'cantonLedger.connections.copyUrl',
  copyValue: 'cantonLedger.connections.copyValue',
  setToken: 'cantonLedger.token.set',
  clearToken: 'cantonLedger.token.clear',
  startDemo: 'cantonLedger.demo.start',
  stopDemo: 'cantonLedger.demo.stop',
  startDemoNetwork: 'cantonLedger.demoNetwork.start',
  stopDemoNetwork: 'cantonLedger.demoNetwork.stop',
  showLog: 'cantonLedger.showLog',
  showCompatibilityReport: 'cantonLedger.connections.showCompatibilityReport',
  // Rows of the ledger views (they take the node the context menu was opened on)
  openJson: 'cantonLedger.item.openJson',
  openRawJson: 'cantonLedger.item.openRawJson',
  copyContractId: 'cantonLedger.item.copyContractId',
  copyUpdateId: 'cantonLedger.item.copyUpdateId',
  copyOffset: 'cantonLedger.item.copyOffset',
  copyPackageId: 'cantonLedger.item.copyPackageId',
  copyRowValue: 'cantonLedger.item.copyValue',
  copyTemplateId: 'cantonLedger.item.copyTemplateId',
  // Updates
  refreshUpdates: 'cantonLedger.updates.refresh',
  loadMoreUpdates: 'cantonLedger.updates.loadMore',
  filterUpdates: 'cantonLedger.updates.filter',
  resetFilter: 'cantonLedger.updates.resetFilter',
  startLiveTail: 'cantonLedger.updates.startLiveTail',
  stopLiveTail: 'cantonLedger.updates.stopLiveTail',
  restartLiveTail: 'cantonLedger.updates.restartLiveTail',
  revealUpdate: 'cantonLedger.updates.reveal',
  // Contract Events
  showContractEvents: 'cantonLedger.contractEvents.show',
  showContractEventsAtCursor: 'cantonLedger.contractEvents.showAtCursor',
  refreshContractEvents: 'cantonLedger.contractEvents.refresh',
  changeEventFormat: 'cantonLedger.contractEvents.changeFormat',
  clearContractHistory: 'cantonLedger.contractEvents.clearHistory',
  // Active Contracts (Filter is the Updates filter: one filter for both views)
  refreshActiveContracts: 'cantonLedger.activeContracts.refresh',
  filterActiveContracts: 'cantonLedger.activeContracts.filter',
  loadMoreActiveContracts: 'cantonLedger.activeContracts.loadMore',
  showActiveContractsAtOffset: 'cantonLedger.activeContracts.showAtOffset',
  showActiveContractsAtLedgerEnd: 'cantonLedger.activeContracts.showAtLedgerEnd',
  exercise: 'cantonLedger.activeContracts.exercise',
  // Vetted Packages and Packages
  refreshVetting: 'cantonLedger.vettedPackages.refresh',
  newVettingFileFor: 'cantonLedger.vettedPackages.newVettingFile',
  refreshPackages: 'cantonLedger.packages.refresh',
  newCommandsFileFor: 'cantonLedger.packages.newCommandsFile',
  uploadDar: 'cantonLedger.packages.uploadDar',
  // Compare Parties
  compareParties: 'cantonLedger.updates.compareParties',
  rerunComparison: 'cantonLedger.compareParties.refresh',
  closeComparison: 'cantonLedger.compareParties.close',
  // Commands and vetting files
  newCommandsFile: 'cantonLedger.files.newCommands',
  newVettingFile: 'cantonLedger.files.newVetting',
  submit: 'cantonLedger.files.submit',
  preview: 'cantonLedger.files.preview',
  submitPreviewed: 'cantonLedger.files.submitPreviewed',
  vettingDryRun: 'cantonLedger.files.vettingDryRun',
  vettingApply: 'cantonLedger.files.vettingApply',
  // The network: pre-flight of commands files, LocalNet connections
  preflight: 'cantonLedger.files.preflight',
  vettingNetworkDryRun: 'cantonLedger.files.vettingNetworkDryRun',
  addLocalNetConnections: 'cantonLedger.connections.addLocalNet',
  // Transaction graph, lineage, ACS changes
  showTransactionGraph: 'cantonLedger.graph.showTransaction',
  showContractLineage: 'cantonLedger.graph.showLineage',
  showRangeDiff: 'cantonLedger.graph.showRangeDiff',
  comparePreviewWithCommitted: 'cantonLedger.graph.comparePreview',
  // Submissions history
  openSubmissionResult: 'cantonLedger.submissions.openResult',
  resubmit: 'cantonLedger.submissions.resubmit',
  retrySameCommandId: 'cantonLedger.submissions.retry',
  lookUpSubmission: 'cantonLedger.submissions.lookUp',
  copyCommandId: 'cantonLedger.submissions.copyCommandId',
  clearSubmissions: 'cantonLedger.submissions.clear',
  // Failed Commands
  explainFailedCommand: 'cantonLedger.failedCommands.explain',
  goToCause: 'cantonLedger.failedCommands.goToCause',
  toggleSucceededCommands: 'cantonLedger.failedCommands.toggleSucceeded',
  readFailedCommandsFrom: 'cantonLedger.failedCommands.readFrom',
  refreshFailedCommands: 'cantonLedger.failedCommands.refresh',
  loadMoreFailedCommands: 'cantonLedger.failedCommands.loadMore',
  // Participant Query Store
  pqsConnect: 'cantonLedger.pqs.connect',
  pqsDisconnect: 'cantonLedger.pqs.disconnect',
  pqsRefresh: 'cantonLedger.pqs.refresh',
  pqsPin: 'cantonLedger.pqs.pin',
  pqsFilter: 'cantonLedger.pqs.filter',
  pqsLoadMore: 'cantonLedger.pqs.loadMore',
  pqsCopySuggestedIndex: 'cantonLedger.pqs.copySuggestedIndex',
  pqsRunFile: 'cantonLedger.pqs.runFile',
  pqsExplainFile: 'cantonLedger.pqs.explainFile',
  pqsSetUpDemo: 'cantonLedger.pqs.setUpDemo',
  // Network
  refreshNetwork: 'cantonLedger.network.refresh',
  compareParticipants: 'cantonLedger.network.compareParticipants',
  // Ledger scripts
  runLedgerScript: 'cantonLedger.scripts.run',
  openScriptStepResult: 'cantonLedger.scripts.openStepResult',
  showScriptStepGraph: 'cantonLedger.scripts.showStepGraph',
  newLedgerScript: 'cantonLedger.files.newLedgerScript',
} as const;

/** A command id of the extension. */
export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Every view id the extension contributes. */
export const Views = {
  connections: 'cantonLedger.connections',
  updates: 'cantonLedger.updates',
  contractEvents: 'cantonLedger.contractEvents',
  activeContracts: 'cantonLedger.activeContracts',
  vettedPackages: 'cantonLedger.vettedPackages',
  packages: 'cantonLedger.packages',
  submissions: 'cantonLedger.submissions',
  failedCommands: 'cantonLedger.failedCommands',
  compareParties: 'cantonLedger.compareParties',
  pqs: 'cantonLedger.pqs',
  network: 'cantonLedger.network',
} as const;

export type ViewId = (typeof Views)[keyof typeof Views];

/** The command VS Code adds for every view, which shows and focuses it. */
export function focusViewCommand(view: ViewId): string {
  return `${view}.focus`;
}
