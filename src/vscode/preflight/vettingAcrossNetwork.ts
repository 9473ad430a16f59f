import type * as vscode from 'vscode';
import { CancelledError } from '../../core/errors';
import type { VettingDryRunResult } from '../../core/network/vettingDryRun';
import { vettingDryRun, vettingDryRunMarkdown, vettingLossProblems } from '../../core/network/vettingDryRun';
import { vettingRequestOf } from '../../core/submit/vetting';
import type * as wire from '../../core/models/wire';
import { checkedSourceAndTarget, fileName } from '../files/submit/sourceFile';
import { Disposable } from '../kit/lifecycle';
import { JudgedDiagnostics, openVersion } from './judgedDiagnostics';
import type { PreflightController, PreflightDeps } from './preflightController';

export interface VettingAcrossNetworkOutcome {
  result?: VettingDryRunResult;
  reportUri?: vscode.Uri;
  members?: string[];
}

/**
 * A `*.vetting.json` file judged across the network before it is applied: a dry run on the file's
 * participant, then, for every party it hosts, the versions that party would lose on any of its
 * hosts (every connected connection is read), marked where the file names the package and in a report.
 */
export class VettingAcrossNetwork extends Disposable {
  private readonly diagnostics = this._register(new JudgedDiagnostics('canton-ledger-vetting-network'));

  constructor(
    private readonly deps: PreflightDeps,
    private readonly preflight: PreflightController,
  ) {
    super();
  }

  async dryRun(arg?: unknown): Promise<VettingAcrossNetworkOutcome> {
    const prompts = this.deps.prompts();
    const entry = await checkedSourceAndTarget(this.deps, arg, 'vetting', prompts, 'was not checked', 'dry-run the vetting change on');
    if (!entry) return {};
    const { source, connection } = entry;
    const name = fileName(source.uri);
    const members = this.preflight.members(connection);
    const labels = members.map((m) => m.label);
    const version = openVersion(source.uri);
    let result: VettingDryRunResult;
    try {
      result = await prompts.progress(`Dry run of ${name} on ${connection.profile.name}, judged across ${labels.join(', ')}`, (signal) =>
        vettingDryRun(vettingRequestOf(source.value as wire.UpdateVettedPackagesRequest, 'dry-run'), members[0], members, { signal }),
      );
    } catch (e) {
      if (!(e instanceof CancelledError)) await this.deps.errors.report(`The dry run of ${name} across the network`, e);
      return {};
    }
    this.diagnostics.set(source.uri, vettingLossProblems(source.text, result), version);
    const reportUri = await this.deps.reports.show(`${name.replace(/\.vetting\.json$/i, '')} across the network`, vettingDryRunMarkdown(name, labels, result));
    const lost = new Set(result.losses.map((l) => l.party)).size;
    await prompts.message(
      result.losses.some((l) => l.after.length === 0) ? 'warning' : 'info',
      lost === 0
        ? `Dry run of ${name} across ${labels.join(', ')}: no party loses a usable version${result.problems.length > 0 ? ` (not everything could be read: see the report)` : ''}. Nothing was changed.`
        : `Dry run of ${name} across ${labels.join(', ')}: ${lost} part${lost === 1 ? 'y' : 'ies'} would lose a usable version (marked in the file). Nothing was changed.`,
      [],
    );
    return { result, reportUri, members: labels };
  }

  diagnosticsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.diagnostics.get(uri);
  }
}
