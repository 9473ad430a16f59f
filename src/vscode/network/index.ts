// The network feature: the demo network (Start/Stop Demo Network, a connection per participant; back
// after a window reload when it ran) and
// the Network view, which reads every connected participant at once.
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { Commands, Views } from '../kit/ids';
import { DemoNetworkController } from './demoNetwork';
import { NetworkView } from './view';
import { compareParticipants } from './compareParticipants';
import type { ViewNode } from '../kit/rowsTree';

export interface NetworkFeature {
  view: NetworkView;
  demoNetwork: DemoNetworkController;
}

export function activateNetwork(host: FeatureHost, demoNetwork = new DemoNetworkController(host.connections, host.logger, host.context.extensionPath, host.context.workspaceState)): ActivatedFeature<NetworkFeature> {
  const view = new NetworkView(host.connections, host.logger, host.redactor, host.prompts);
  const start = async () => {
    await demoNetwork.start();
    // Each participant's connection connects; one that fails is reported (with Retry) without holding up the others.
    await Promise.all(
      demoNetwork.connections().map((c) =>
        c.state.state === 'connected'
          ? undefined
          : host.prompts.viewProgress(Views.connections, () => c.connect()).catch((e: unknown) => host.errors.report(`Connecting to ${c.profile.name}`, e, { retry: () => c.connect() })),
      ),
    );
  };
  host.commands.register(Commands.startDemoNetwork, start);
  host.commands.register(Commands.stopDemoNetwork, () => demoNetwork.stop());
  host.commands.register(Commands.refreshNetwork, () => view.refresh());
  host.commands.register(Commands.compareParticipants, (node?: ViewNode) => compareParticipants({ view, prompts: host.prompts, documents: host.documents }, node));
  // The network runs in the extension host, which a reload ends: it comes back (and its connections connect) when it ran in this window.
  if (demoNetwork.ranWhenClosed) void start().catch((e: unknown) => host.errors.report('Starting the demo network again', e));
  return { disposables: [view, demoNetwork], api: { view, demoNetwork } };
}
