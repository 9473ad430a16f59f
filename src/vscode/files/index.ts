/**
 * The Canton files: editing `*.commands.json`, `*.vetting.json` and `*.ledger.json` (checks with
 * positions, quick fixes, completions and hovers, new files: ./editing) and sending them to a
 * participant (submit, preview, vetting, DAR upload and the Submissions history: ./submit).
 */
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { registerFileEditing } from './editing';
import { registerFileSending, type FileSending } from './submit';

export function activateFiles(host: FeatureHost): ActivatedFeature<FileSending> {
  const { context, commands, connections, packages, logger, redactor, prompts, documents, errors, showLog } = host;
  const editing = registerFileEditing(commands, connections, packages, logger, prompts);
  const { disposables, sending } = registerFileSending(context, commands, { connections, documents, logger, redactor, showLog, errors, targets: commands.targets }, prompts);
  return { disposables: [...editing, ...disposables], api: sending };
}
