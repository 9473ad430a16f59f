/**
 * Failed Commands: the participant's command completions that failed (and, on request, those that
 * succeeded), read back in windows and followed live while the view is shown, each explained and its
 * cause marked in the file it came from. It reads the submissions the file sending feature keeps.
 */
import type { SubmissionRecord } from '../../core/submit/history';
import type { FileSending } from '../files/submit';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { Commands } from '../kit/ids';
import type { ViewNode } from '../kit/rowsTree';
import { FailedCommandsView } from './failedCommandsView';

export interface FailedCommands {
  view: FailedCommandsView;
}

/** `sent`: the submission history, the report documents and the cause markers of the file sending feature. */
export function activateFailures(host: FeatureHost, sent: Pick<FileSending, 'history' | 'reports' | 'causes'>): ActivatedFeature<FailedCommands> {
  const { commands, connections, logger, redactor, prompts } = host;
  const view = new FailedCommandsView(connections, sent.history, sent.reports, sent.causes, () => prompts, logger, redactor);
  // A submission's record (the "Explain" button of a failed submit), or a row of the view.
  const explain = (target?: ViewNode | SubmissionRecord) => (isRecord(target) ? view.explainRecord(target) : view.explain(target));
  commands.register(Commands.explainFailedCommand, explain);
  commands.register(Commands.goToCause, (node?: ViewNode) => view.goToCause(node));
  commands.register(Commands.toggleSucceededCommands, () => view.toggleSucceeded());
  commands.register(Commands.readFailedCommandsFrom, () => view.readFrom());
  commands.register(Commands.refreshFailedCommands, () => view.refresh());
  commands.register(Commands.loadMoreFailedCommands, () => view.loadMore());
  return { disposables: [view], api: { view } };
}

function isRecord(target: ViewNode | SubmissionRecord | undefined): target is SubmissionRecord {
  return typeof target === 'object' && !('type' in target) && 'fileUri' in target;
}
