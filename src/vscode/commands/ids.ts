/** Every command id the extension registers, in one place (package.json lists the same). */
export const Commands = {
  addConnection: 'cantonLedger.connections.add',
  selectConnection: 'cantonLedger.connections.select',
  refreshConnections: 'cantonLedger.connections.refresh',
  connect: 'cantonLedger.connections.connect',
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
  // Ledger views (issue 4)
  revealUpdate: 'cantonLedger.updates.reveal',
  showContractEvents: 'cantonLedger.contractEvents.show',
  refreshPackages: 'cantonLedger.packages.refresh',
  refreshVettedPackages: 'cantonLedger.vettedPackages.refresh',
} as const;
