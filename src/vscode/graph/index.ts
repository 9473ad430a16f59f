/** Transaction graphs: a transaction, a contract's lineage, a range's ACS change and a preview, drawn in the graph panel (the model: src/core/graph). */
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { registerGraphs } from './graphCommands';
import type { GraphPanels } from './graphPanels';

export function activateGraphs(host: FeatureHost): ActivatedFeature<GraphPanels> {
  const { context, commands, connections, documents, logger, redactor, prompts } = host;
  const graphs = registerGraphs(commands, { extensionUri: context.extensionUri, connections, documents, logger, redactor, prompts });
  return { disposables: graphs.registrations, api: graphs.panels };
}
