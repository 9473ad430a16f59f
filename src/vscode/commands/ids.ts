/** Every command id the extension registers, in one place (package.json lists the same). */
export const Commands = {
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
  showLog: 'cantonLedger.showLog',
  // Ledger views
  revealUpdate: 'cantonLedger.updates.reveal',
  showContractEvents: 'cantonLedger.contractEvents.show',
  // Compare Parties
  compareParties: 'cantonLedger.updates.compareParties',
  rerunComparison: 'cantonLedger.compareParties.refresh',
  closeComparison: 'cantonLedger.compareParties.close',
} as const;

/** The Active Contracts view's own commands (Copy Contract ID and Show Contract Events are shared with the other views). */
export const ActiveContractsCommands = {
  refresh: 'cantonLedger.activeContracts.refresh',
  /** The Updates filter (one filter for both views), offered in this view's title. */
  filter: 'cantonLedger.activeContracts.filter',
  loadMore: 'cantonLedger.activeContracts.loadMore',
  showAtOffset: 'cantonLedger.activeContracts.showAtOffset',
  showAtLedgerEnd: 'cantonLedger.activeContracts.showAtLedgerEnd',
  exercise: 'cantonLedger.activeContracts.exercise',
} as const;
