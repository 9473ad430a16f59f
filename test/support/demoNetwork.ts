/** A demo network whose every exchange, on every participant, is checked against the spec of the release it imitates. */
import { LOCALNET_PARTICIPANTS, startDemoNetwork, type DemoNetwork, type DemoNetworkOptions } from '../../src/participant/network/index';
import { FaultProxy } from './faultProxy';
import { checkExchanges } from './specCheck';

export const LOCALNET = LOCALNET_PARTICIPANTS;

export async function startCheckedNetwork(options: Partial<DemoNetworkOptions> = {}): Promise<DemoNetwork> {
  const check = checkExchanges(options.apiVersion);
  return startDemoNetwork({ participants: LOCALNET, seed: 7, ...options, onExchange: (name, x) => (check(x), options.onExchange?.(name, x)) });
}

/** Vets (or unvets) every version of a package name on one participant of the network, as its vetting endpoint would. */
export function setVetting(network: DemoNetwork, participant: string, packageName: string, vetted: boolean, packageVersion?: string): void {
  const ref = { packageName, ...(packageVersion ? { packageVersion } : {}) };
  network.participant(participant).state.updateVetting(
    network.synchronizer.id,
    { changes: [vetted ? { operation: 'vet', refs: [ref], validFrom: null, validUntil: null } : { operation: 'unvet', refs: [ref] }], allowUnvettedDependencies: false, checkOnlyChangedPackages: true },
    false,
  );
}

/**
 * A proxy before `url` that answers preferred-packages as a participant without the endpoint does
 * (404, its text body: a 3.3 participant), passing everything else on. Closed by the caller.
 */
export async function withoutPreferredPackages(url: string): Promise<FaultProxy> {
  const proxy = new FaultProxy(url);
  proxy.add({ path: '/v2/interactive-submission/preferred-packages', fault: { kind: 'answer', status: 404, body: 'The requested resource could not be found.', contentType: 'text/plain; charset=UTF-8' }, times: 100 });
  await proxy.start();
  return proxy;
}
