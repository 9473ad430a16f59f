/**
 * The packages views: the Daml packages in use (templates and choices, each with New Commands File) and
 * the vetted packages of each synchronizer (with New Vetting File). The packages themselves are the
 * host's (src/vscode/kit/ledgerPackages.ts); their rows are the core's (src/core/daml/packageRows.ts).
 */
import vscode = require('vscode');
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { Commands } from '../kit/ids';
import type { ViewNode } from '../kit/rowsTree';
import { registerPackagesView } from './packagesView';
import { VettedPackagesView } from './vettedPackagesView';

export interface PackagesFeature {
  vettedPackages: VettedPackagesView;
}

export function activatePackages(host: FeatureHost): ActivatedFeature<PackagesFeature> {
  const { commands, connections, packages, logger, redactor, prompts } = host;
  const packagesView = registerPackagesView(commands, connections, packages, logger, redactor);
  const vettedPackages = new VettedPackagesView(connections, logger, redactor, prompts);
  /** `target` passes on where to create the file (see NewFileTarget of the New Vetting File command). */
  const newVettingFile = async (node?: ViewNode, target: object = {}) => {
    const states = (await vettedPackages.states()) ?? [];
    const synchronizerId = node?.type === 'row' ? node.row.synchronizerId : states.length === 1 ? states[0].synchronizerId : undefined;
    const state = states.find((s) => s.synchronizerId === synchronizerId);
    return vscode.commands.executeCommand<vscode.Uri | undefined>(Commands.newVettingFile, { ...target, synchronizerId, expectedTopologySerial: state?.topologySerial });
  };
  commands.register(Commands.refreshVetting, () => vettedPackages.refresh());
  commands.register(Commands.newVettingFileFor, newVettingFile);
  return { disposables: [packagesView, vettedPackages], api: { vettedPackages } };
}
