/**
 * Connections: the Connections view, the status bar, the commands that add, edit, connect and select
 * connections and set their tokens, and the demo participant's start and stop. The list of
 * connections itself (./manager, ./profiles, ./tokens) is the host's, shared by every feature.
 */
import vscode = require('vscode');
import { DEMO_CONNECTION_ID } from '../kit/demo';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { Commands, Views } from '../kit/ids';
import { ConnectionCommands } from './connectionCommands';
import { ConnectionsTreeProvider } from './connectionsTree';
import { ConnectionStatusBar } from './statusBar';
import { TokenCommands } from './tokenCommands';

export interface ConnectionsFeature {
  connectionsTree: ConnectionsTreeProvider;
  statusBar: ConnectionStatusBar;
}

export function activateConnections(host: FeatureHost): ActivatedFeature<ConnectionsFeature> {
  const { context, commands, connections, prompts, errors, secrets, demo } = host;
  const tree = new ConnectionsTreeProvider(connections);
  const connectionsView = vscode.window.createTreeView(Views.connections, { treeDataProvider: tree, showCollapseAll: true });
  const statusBar = new ConnectionStatusBar(connections, prompts);
  const connectionCommands = new ConnectionCommands(connections, errors, prompts);
  const tokenCommands = new TokenCommands(connections, secrets, (c) => connectionCommands.connect(c), prompts);
  const startDemo = async () => {
    await vscode.workspace.fs.createDirectory(context.globalStorageUri);
    await demo.start();
    await connectionCommands.connect(connections.connection(DEMO_CONNECTION_ID));
  };
  const updateContext = () => vscode.commands.executeCommand('setContext', 'cantonLedger.hasConnections', connections.profiles.all().length > 0);
  // Commands that need a participant are offered in the palette once the active connection is connected.
  const updateConnectedContext = () => vscode.commands.executeCommand('setContext', 'cantonLedger.connected', connections.activeConnected());
  connectionCommands.register(commands);
  tokenCommands.register(commands);
  commands.register(Commands.startDemo, startDemo);
  commands.register(Commands.stopDemo, () => demo.stop());
  void updateContext();
  return {
    disposables: [tree, connectionsView, statusBar, connections.profiles.onDidChange(updateContext), connections.onDidChange(updateConnectedContext)],
    api: { connectionsTree: tree, statusBar },
  };
}
