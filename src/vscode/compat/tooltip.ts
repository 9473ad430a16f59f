// The compatibility part of a connection's tooltip (the Connections view): the report's short form and
// a link to the whole report, or "checking…" while the participant's description is being read.
import { CHECKING_LINE, reportSummaryMarkdown, SHOW_REPORT_TITLE } from '../../core/compat/wording';
import type { LedgerConnection } from '../../core/ledger/connection';
import { Commands } from '../kit/ids';

/** The commands a tooltip with {@link compatibilityTooltip} may run from its links (for `MarkdownString.isTrusted`). */
export const COMPATIBILITY_TOOLTIP_COMMANDS: readonly string[] = [Commands.showCompatibilityReport];

/** Markdown for a connected connection's tooltip; undefined when it is not connected. */
export function compatibilityTooltip(connection: LedgerConnection): string | undefined {
  if (connection.state.state !== 'connected') return undefined;
  const report = connection.compatibility;
  if (!report) return connection.compatibilityPending ? CHECKING_LINE : undefined;
  const link = `command:${Commands.showCompatibilityReport}?${encodeURIComponent(JSON.stringify([connection.id]))}`;
  return `${reportSummaryMarkdown(report)}\n\n[${SHOW_REPORT_TITLE}](${link})`;
}
