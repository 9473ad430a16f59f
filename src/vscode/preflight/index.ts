/** The pre-flight of commands files across the network, and LocalNet connections in one step. */
import vscode = require('vscode');
import { Commands } from '../kit/ids';
import type { SubmitController } from '../files/submit/submit';
import type { DarUploadController } from '../files/submit/darUpload';
import type { PreviewController } from '../files/submit/preview';
import { darVettingElsewhere } from './darVetting';
import type { MarkdownReports } from '../files/submit/textDocuments';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { PreflightCodeLensProvider } from './codeLens';
import { PreflightController } from './preflightController';
import { VettingAcrossNetwork } from './vettingAcrossNetwork';

export interface PreflightFeature {
  controller: PreflightController;
  vetting: VettingAcrossNetwork;
}

/** What the pre-flight takes from the sending feature: where reports open, the Submit it guards, the DAR upload it adds the other hosts to. */
export interface PreflightSending {
  reports: MarkdownReports;
  submit: SubmitController;
  darUpload: DarUploadController;
  preview: PreviewController;
}

export function activatePreflight(host: FeatureHost, sending: PreflightSending): ActivatedFeature<PreflightFeature> {
  const controller = new PreflightController({ connections: host.connections, targets: host.commands.targets, reports: sending.reports, errors: host.errors, prompts: () => host.prompts, informeesOf: (uri, commandId) => sending.preview.informeesOf(uri, commandId) });
  const vetting = new VettingAcrossNetwork({ connections: host.connections, targets: host.commands.targets, reports: sending.reports, errors: host.errors, prompts: () => host.prompts }, controller);
  const lenses = new PreflightCodeLensProvider(host.connections);
  sending.submit.beforeSubmit = (uri, text, connection) => controller.beforeSubmit(uri, text, connection);
  sending.darUpload.afterUpload = (result, connection) => darVettingElsewhere(result, controller.members(connection), () => host.prompts, host.logger);
  host.commands.register(Commands.preflight, (uri?: unknown) => controller.preflightFile(uri));
  host.commands.register(Commands.vettingNetworkDryRun, (uri?: unknown) => vetting.dryRun(uri));
  return {
    disposables: [controller, vetting, lenses, vscode.languages.registerCodeLensProvider([{ pattern: '**/*.commands.json' }, { pattern: '**/*.vetting.json' }], lenses), { dispose: () => ((sending.submit.beforeSubmit = undefined), (sending.darUpload.afterUpload = undefined)) }],
    api: { controller, vetting },
  };
}
