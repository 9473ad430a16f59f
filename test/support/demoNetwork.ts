/** A demo network whose every exchange, on every participant, is checked against the spec of the release it imitates. */
import { LOCALNET_PARTICIPANTS, startDemoNetwork, type DemoNetwork, type DemoNetworkOptions } from '../../src/participant/network/index';
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
