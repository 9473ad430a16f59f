/** Ledger scripts (`*.ledger.json`) in the Test Explorer: their steps as tests, run over the one write path (the runner: src/core/scripts). */
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { ScriptTests } from './scriptTests';

export function activateScripts(host: FeatureHost): ActivatedFeature<ScriptTests> {
  const { commands, connections, documents, prompts, packages } = host;
  const scripts = new ScriptTests(commands, { connections, documents, prompts, readDar: (bytes) => packages.readDar(bytes) });
  return { disposables: [scripts], api: scripts };
}
