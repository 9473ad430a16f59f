import vscode = require('vscode');
import type { LedgerClient } from '../../../core/api/client';
import type { LedgerConnection } from '../../../core/ledger/connection';
import { CancelledError, LedgerError } from '../../../core/errors';
import { isEmptyDiff, type VettingUpdateResult } from '../../../core/models/vetting';
import type * as wire from '../../../core/models/wire';
import {
  ALLOW_UNVETTED_DEPENDENCIES_FLAG,
  diffLines,
  diffSummary,
  expectedSerialValue,
  namePackages,
  pinnedSerial,
  sendVetting,
  setJsonValueEdits,
  vettingDiffMarkdown,
  vettingRequestOf,
  withForceFlag,
  type VettingFailure,
  type VettingMode,
} from '../../../core/submit/vetting';
import { SHOW_LOG, type Prompts } from '../../kit/prompts';
import type { SendDeps } from './submit';
import { applyJsonEdits, checkedSourceAndTarget, currentText, fileName, type CheckedSource } from './sourceFile';
import type { MarkdownReports } from './textDocuments';

export const VettingActions = {
  apply: 'Apply Changes',
  confirmApply: 'Apply',
  addForceFlag: 'Add Force Flag',
  pickSynchronizer: 'Choose Synchronizer',
  refreshSerial: 'Refresh the Serial',
  tryAgain: 'Try Again',
  retryPinned: 'Retry Pinned',
  checkState: 'Check Current State',
  showLog: SHOW_LOG,
} as const;

export type { VettingMode } from '../../../core/submit/vetting';

export interface VettingOutcome {
  result?: VettingUpdateResult;
  reportUri?: vscode.Uri;
  failure?: VettingFailure;
  /** True when the change was applied (not only previewed). */
  applied?: boolean;
  /** True when an apply was sent and no definite answer came back: it may or may not have been applied. */
  unknown?: boolean;
  /** True when the state already was as the file says after a lost answer or a refused pinned retry (`result`: the state now). */
  alreadyApplied?: boolean;
  action?: string;
  /** What the chosen action led to (a fix runs the same operation again). */
  next?: VettingOutcome;
}

/** Dry run and apply of `*.vetting.json` files, with the diff past → new and the fixes for the failures that have one. */
export class VettingController {
  constructor(
    private readonly deps: SendDeps,
    private readonly reports: MarkdownReports,
    private readonly prompts: () => Prompts,
    private readonly showLog: () => void,
  ) {}

  async dryRun(arg?: unknown): Promise<VettingOutcome> {
    const ready = await this.prepare(arg);
    if (!ready) return {};
    const { source, connection } = ready;
    const preview = await this.update(source, connection, 'dry-run');
    if (!preview.result) return preview;
    const r = preview.result;
    const action = await this.prompts().message(
      'info',
      `Dry run of ${fileName(source.uri)} on ${connection.profile.name}: ${diffSummary(r.diff)}${isEmptyDiff(r.diff) ? '' : ` (topology serial ${r.past?.topologySerial ?? 0} → ${r.next.topologySerial})`}. Nothing was changed.`,
      isEmptyDiff(r.diff) ? [] : [VettingActions.apply],
    );
    return { ...preview, action, next: action === VettingActions.apply ? await this.apply(source.uri) : undefined };
  }

  /** Previews, asks for confirmation with the diff, then applies exactly what was previewed. */
  async apply(arg?: unknown): Promise<VettingOutcome> {
    const ready = await this.prepare(arg);
    if (!ready) return {};
    const { source, connection } = ready;
    const preview = await this.update(source, connection, 'dry-run');
    const r = preview.result;
    if (!r) return preview;
    if (isEmptyDiff(r.diff)) {
      await this.prompts().message('info', `${fileName(source.uri)} changes nothing on ${connection.profile.name}: the vetted packages already are as it says.`, []);
      return preview;
    }
    const detail = [
      `Synchronizer: ${r.next.synchronizerId}`,
      `Topology serial: ${r.past?.topologySerial ?? 0} → ${r.next.topologySerial}`,
      '',
      ...diffLines(r.diff),
    ].join('\n');
    const confirm = await this.prompts().message('warning', `Apply the vetting changes of ${fileName(source.uri)} to ${connection.profile.name}? ${diffSummary(r.diff)}.`, [VettingActions.confirmApply], { modal: true, detail });
    if (confirm !== VettingActions.confirmApply) return { ...preview, action: confirm };
    const value = source.value as wire.UpdateVettedPackagesRequest;
    // Pin the serial the preview started from, so that a change made meanwhile by someone else
    // fails (TOPOLOGY_SERIAL_MISMATCH) instead of applying something other than what was confirmed.
    const pinned: CheckedSource = { ...source, value: vettingRequestOf(value, 'apply', r.past?.topologySerial ?? 0) };
    const applied = await this.update(pinned, connection, 'apply', source);
    if (applied.result && !applied.alreadyApplied) {
      await this.prompts().message('info', `Vetting applied on ${connection.profile.name}: ${diffSummary(applied.result.diff)}; the topology serial is now ${applied.result.next.topologySerial}.`, []);
    }
    return { ...applied, applied: applied.result !== undefined };
  }

  private prepare(arg: unknown): Promise<{ source: CheckedSource; connection: LedgerConnection } | undefined> {
    return checkedSourceAndTarget(this.deps, arg, 'vetting', this.prompts(), 'was not sent', 'send the vetting changes to');
  }

  /**
   * One update call (dry run or apply), its report, and the fix of a failure. `original`: the file as
   * written (before pinning); `retry`: this apply retries one whose outcome was unknown.
   */
  private async update(source: CheckedSource, connection: LedgerConnection, mode: VettingMode, original = source, retry = false): Promise<VettingOutcome> {
    const name = fileName(source.uri);
    const body = vettingRequestOf(source.value as wire.UpdateVettedPackagesRequest, mode);
    // An apply goes through the connection: its vetting state is read again after it (an unknown outcome too).
    const outcome = await this.prompts().progress(`${mode === 'dry-run' ? 'Dry run of' : 'Applying'} ${name} on ${connection.profile.name}`, (signal) =>
      mode === 'apply' ? connection.write('vetting', (c, s) => sendVetting(c, body, s), { signal }) : sendVetting(connection.client, body, signal),
    );
    if (outcome.kind === 'unknown' && outcome.lookUp.found === 'applied') return this.alreadyApplied(original, connection, outcome.lookUp.current, `no definite answer came back (${outcome.error.message})`);
    if (outcome.kind === 'unknown') return this.unknownApply(source, original, connection, outcome.error);
    if (outcome.kind === 'already-applied') return this.alreadyApplied(original, connection, outcome.current, `refused with ${outcome.error.code}: the serial it was pinned to had moved on`);
    if (outcome.kind === 'failed') {
      if (retry && outcome.failure?.kind === 'serial-mismatch') return this.retryRefused(original, connection, body);
      return this.failed(original, connection, mode, outcome.error, outcome.failure);
    }
    const result = outcome.result;
    const reportUri = await this.reports.show(`${name.replace(/\.vetting\.json$/i, '')} ${mode === 'dry-run' ? 'dry run' : 'applied'}`, vettingDiffMarkdown(result, name));
    return { result, reportUri };
  }

  /**
   * An apply that got no definite answer: say so, and offer what is safe — a look at the current
   * state (a dry run), and the same request again, pinned to the serial the preview saw, so that it
   * fails rather than applies twice. Never re-sent without being asked.
   */
  private async unknownApply(pinned: CheckedSource, original: CheckedSource, connection: LedgerConnection, e: unknown): Promise<VettingOutcome> {
    const name = fileName(original.uri);
    const serial = pinnedSerial((pinned.value as wire.UpdateVettedPackagesRequest).expectedTopologySerial);
    this.deps.logger.warn(`Applying ${name} on ${connection.profile.name}: outcome unknown: ${this.deps.redactor.redactError(e)}`);
    const why = e instanceof CancelledError ? 'cancelled after sending' : e instanceof LedgerError ? e.message : String(e);
    const pin = serial === undefined ? "the file's expectedTopologySerial" : `topology serial ${serial}`;
    const action = await this.prompts().message(
      'warning',
      `Outcome unknown: the vetting changes of ${name} may or may not have been applied on ${connection.profile.name} (${why}). ` +
        `Check the current state to see. Retrying is safe: it is pinned to ${pin}, so if the first attempt went through the retry fails instead of applying twice.`,
      [VettingActions.checkState, VettingActions.retryPinned],
    );
    const next =
      action === VettingActions.retryPinned
        ? await this.update(pinned, connection, 'apply', original, true)
        : action === VettingActions.checkState
          ? await this.update(original, connection, 'dry-run')
          : undefined;
    return { unknown: true, action, next };
  }

  /** The state already is as the file says (a lost answer, or a pinned retry after one): said so, with the state as a report. */
  private async alreadyApplied(original: CheckedSource, connection: LedgerConnection, current: VettingUpdateResult, why: string): Promise<VettingOutcome> {
    const name = fileName(original.uri);
    const reportUri = await this.reports.show(`${name.replace(/\.vetting\.json$/i, '')} current state`, vettingDiffMarkdown(current, name));
    await this.prompts().message('info', `Already applied: the vetted packages on ${connection.profile.name} already are as ${name} says (topology serial ${current.next.topologySerial}); nothing was applied twice. (${why})`, []);
    return { result: current, reportUri, alreadyApplied: true };
  }

  /** The pinned retry of an unknown apply found the serial moved on, and the state is not as the file says: another change came first. */
  private async retryRefused(original: CheckedSource, connection: LedgerConnection, body: wire.UpdateVettedPackagesRequest): Promise<VettingOutcome> {
    const serial = pinnedSerial(body.expectedTopologySerial);
    const action = await this.prompts().message(
      'info',
      `The retry was refused: the topology serial on ${connection.profile.name} is no longer ${serial ?? 'the one pinned'}, and the vetted packages are not as ${fileName(original.uri)} says: another change was made meanwhile. Nothing was applied; check the current state.`,
      [VettingActions.checkState],
    );
    return { failure: { kind: 'serial-mismatch' }, action, next: action === VettingActions.checkState ? await this.update(original, connection, 'dry-run') : undefined };
  }

  private async failed(source: CheckedSource, connection: LedgerConnection, mode: VettingMode, e: LedgerError, failure: VettingFailure | undefined): Promise<VettingOutcome> {
    if (e instanceof CancelledError) return {};
    const name = fileName(source.uri);
    const value = source.value as wire.UpdateVettedPackagesRequest;
    if (failure) this.deps.logger.warn(`Vetting ${name}: ${this.deps.redactor.redactError(e)}`);
    const prompts = this.prompts();
    const again = async (): Promise<VettingOutcome> => (mode === 'apply' ? this.apply(source.uri) : this.dryRun(source.uri));
    let action: string | undefined;
    switch (failure?.kind) {
      case 'dependencies-not-vetted': {
        const names = namePackages(failure.packageIds, await this.knownPackages(connection.client, value.synchronizerId));
        action = await prompts.message(
          'error',
          `${name} was refused: ${names.length === 1 ? 'a dependency' : `${names.length} dependencies`} would not be vetted: ${names.join(', ') || '(not named)'}. ` +
            `Vet ${names.length === 1 ? 'it' : 'them'} in the same file, before the packages that need ${names.length === 1 ? 'it' : 'them'}; or, if you accept packages whose dependencies are not vetted, ` +
            `set updateVettedPackagesForceFlags: ["${ALLOW_UNVETTED_DEPENDENCIES_FLAG}"].`,
          [VettingActions.addForceFlag],
        );
        if (action !== VettingActions.addForceFlag) return { failure, action };
        await this.editFile(source.uri, ['updateVettedPackagesForceFlags'], withForceFlag(value.updateVettedPackagesForceFlags));
        return { failure, action, next: await again() };
      }
      case 'cannot-autodetect-synchronizer': {
        action = await prompts.message('error', `${name} names no synchronizer, and ${connection.profile.name} is connected to several: choose the one to vet on (written to the file as synchronizerId).`, [VettingActions.pickSynchronizer]);
        if (action !== VettingActions.pickSynchronizer) return { failure, action };
        const synchronizers = await connection.client.connectedSynchronizers();
        const picked = await prompts.pick(
          synchronizers.map((s) => ({ label: s.synchronizerAlias || s.synchronizerId, description: s.synchronizerId, detail: s.permission ?? undefined, id: s.synchronizerId })),
          { title: `Vet ${name} on which synchronizer?` },
        );
        if (!picked) return { failure, action };
        await this.editFile(source.uri, ['synchronizerId'], picked.id);
        return { failure, action, next: await again() };
      }
      case 'serial-mismatch': {
        if (!value.expectedTopologySerial) {
          // Our own pin from the preview: the state changed between preview and apply.
          action = await prompts.message('error', `The vetting state on ${connection.profile.name} changed between the preview and the apply; nothing was applied. Look at the new diff.`, [VettingActions.tryAgain]);
          return { failure, action, next: action === VettingActions.tryAgain ? await again() : undefined };
        }
        const current = await this.currentSerial(connection, value.synchronizerId);
        action = await prompts.message(
          'error',
          `${name} expects an older vetting state: its expectedTopologySerial is stale (the current serial is ${current}). Refresh it from the current state and review the diff again.`,
          [VettingActions.refreshSerial],
        );
        if (action !== VettingActions.refreshSerial) return { failure, action };
        await this.editFile(source.uri, ['expectedTopologySerial'], expectedSerialValue(current));
        // A refreshed serial deserves a fresh look: always preview after it.
        return { failure, action, next: await this.dryRun(source.uri) };
      }
      default:
        return { action: await this.deps.errors.report(`${mode === 'dry-run' ? 'Dry run of' : 'Applying'} ${name} failed`, e) };
    }
  }

  private async editFile(uri: vscode.Uri, path: string[], value: unknown): Promise<void> {
    const ok = await applyJsonEdits(uri, setJsonValueEdits(await currentText(uri), path, value));
    if (!ok) throw new Error(`Could not edit ${fileName(uri)}`);
  }

  /** The vetting state now, of the file's synchronizer or of all, of one participant or of all. */
  private vettingStates(client: LedgerClient, synchronizerId: string | undefined, participantId?: string) {
    const filter = { ...(synchronizerId ? { synchronizerIds: [synchronizerId] } : {}), ...(participantId ? { participantIds: [participantId] } : {}) };
    return client.listVettedPackages(Object.keys(filter).length > 0 ? { topologyStateFilter: filter } : {});
  }

  /** The packages vetted now, to name package ids (none when the list cannot be read: ids are shown then). */
  private async knownPackages(client: LedgerClient, synchronizerId: string | undefined) {
    try {
      return (await this.vettingStates(client, synchronizerId)).flatMap((s) => s.packages);
    } catch (e) {
      if (e instanceof LedgerError) return [];
      throw e;
    }
  }

  /** The current vetting serial of the file's synchronizer (or the only one); 0 when there is none yet. */
  private async currentSerial(connection: LedgerConnection, synchronizerId: string | undefined): Promise<number> {
    // On a synchronizer shared with other participants the list holds their states too: ask for our own
    // (the connection knows its participant id; ask the participant only when it is not connected).
    const state = connection.state;
    const own = (state.state === 'connected' ? state.info.participantId : undefined) ?? (await connection.client.participantId().catch(() => undefined));
    return (await this.vettingStates(connection.client, synchronizerId, own))[0]?.topologySerial ?? 0;
  }
}
