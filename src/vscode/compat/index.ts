// The compatibility report in the editor: Show Compatibility Report (a connection's row, the palette),
// the report as a read-only Markdown document, and the report's button on a request the participant's
// description refused (IncompatibleRequestError). The report itself is the connection's
// (`connection.compatibility`, core/compat); its words are core/compat/wording.ts's.
import { reportDocumentMarkdown, SHOW_REPORT_BUTTON, SHOW_REPORT_TITLE } from '../../core/compat/wording';
import { IncompatibleRequestError } from '../../core/errors';
import type { LedgerConnection } from '../../core/ledger/connection';
import { Commands } from '../kit/ids';
import type { TargetPolicy } from '../kit/registry';
import { MarkdownReports } from '../files/submit/textDocuments';
import type { ActivatedFeature, FeatureHost } from '../kit/feature';
import { COMPAT_REPORT_SCHEME } from '../kit/schemes';

export interface CompatFeature {
  /** The report documents (their content, for the entry's stand-in provider). */
  readonly reports: MarkdownReports;
  /** Opens the connection's report (waiting for it when the check is still running); its document's URI. */
  show(connection: LedgerConnection): Promise<import('vscode').Uri | undefined>;
}

/** Given no row: the active connection when connected, else a question among the connected ones. */
const TARGET: TargetPolicy = { action: SHOW_REPORT_TITLE, question: 'The compatibility report of which connection?', fits: (c) => c.state.state === 'connected', preferActive: true };

export function activateCompat(host: FeatureHost): ActivatedFeature<CompatFeature> {
  const reports = new MarkdownReports(20, COMPAT_REPORT_SCHEME);
  const show = async (connection: LedgerConnection) => {
    const name = connection.profile.name;
    if (connection.state.state !== 'connected') {
      await host.prompts.message('info', `${name} is not connected: connect it to check what its participant accepts.`, []);
      return undefined;
    }
    const report = connection.compatibility ?? (await host.prompts.progress(`Checking ${name} against its participant's API description…`, (signal) => connection.whenCompatibilityChecked(signal)));
    if (!report) {
      await host.prompts.message('info', `${name} is no longer connected: connect it again for its compatibility report.`, []);
      return undefined;
    }
    return reports.show(`Compatibility of ${name}`, reportDocumentMarkdown(report, connection.profile));
  };
  /** The connection a refused request was of: a connected one whose participant reported that version (the active one first). */
  const refusedOn = (err: IncompatibleRequestError): LedgerConnection | undefined => {
    const connected = host.connections.profiles.all().map((p) => host.connections.connectionFor(p));
    const active = host.connections.active();
    return [...(active ? [active] : []), ...connected].find((c) => c.compatibility?.version === err.version);
  };
  const disposables = [
    reports,
    host.commands.registerForConnection(Commands.showCompatibilityReport, TARGET, show),
    host.errors.offer({
      label: SHOW_REPORT_BUTTON,
      fits: (err) => err instanceof IncompatibleRequestError,
      run: async (err) => {
        const connection = refusedOn(err as IncompatibleRequestError) ?? (await host.commands.targets.resolve(undefined, TARGET));
        return connection && show(connection);
      },
    }),
  ];
  return { disposables, api: { reports, show } };
}
