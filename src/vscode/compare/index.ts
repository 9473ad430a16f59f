/** Compare Parties: what each of several parties sees of a range of the ledger, side by side (the core's rules: src/core/updates). */
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { type CompareFeature, registerComparePartiesView } from './compareView';

export function activateCompare(host: FeatureHost): ActivatedFeature<CompareFeature> {
  const { feature, view } = registerComparePartiesView(host.commands, host.connections, host.logger, host.redactor, host.errors, host.prompts);
  return { disposables: [view], api: feature };
}
