import type * as vscode from 'vscode';
import { AuthError, CantonApiError, IncompatibleRequestError, LedgerError, NotServedError, UnsupportedOperationError } from '../../core/errors';
import { SHOW_REPORT_TITLE } from '../../core/compat/wording';
import { PqsError } from '../../core/pqs/errors';
import { Commands } from './ids';
import { isCancellation, wantsToken } from './prompts';

/**
 * A row that says something about what a node lists rather than holding its data (a failure, Retry,
 * "Load more"), as plain data: each tree makes its own node of it.
 */
export interface StatusRow {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  iconColor?: string;
  command?: vscode.Command;
  contextValue?: string;
}

export interface ErrorRowOptions {
  /** What Retry does; without it, no Retry is offered. */
  retry?: vscode.Command;
  /** The failure's own row is the Retry ("click to retry") rather than a Retry row below it, where it has no action of its own. */
  retryOnRow?: boolean;
  /** The connection the failure is of: its URL or its token can be mended from the rows. */
  profileId?: string;
  /**
   * What failed, as the failure row's label ("Could not connect"), its message then the description;
   * a rejected token gets an "Update Token" row of its own. Without it the row names the failure itself.
   */
  title?: string;
  /** The arguments of Update Token and Edit Connection URL (default: the profile id). */
  target?: unknown;
  redact(s: string): string;
}

const FAILED_COLOR = 'list.errorForeground';

/**
 * The one way a tree shows a failure (never a toast from a tree), for every error family: the Canton
 * code with its cause, a ledger or PQS failure with its hint, "Token rejected — Update Token", "Edit
 * Connection URL" for a URL the participant is not served under, anything else by its message; then
 * Retry. A release without the operation is said as a fact, with no Retry; a cancel is "Cancelled",
 * never shown as a failure.
 */
export function errorRows(idPrefix: string, err: unknown, o: ErrorRowOptions): StatusRow[] {
  // Not a failure: this release has no such operation, and asking again would not change that.
  if (err instanceof UnsupportedOperationError) {
    return [{ id: `${idPrefix}/unsupported`, label: err.message, description: '', tooltip: err.hint, icon: 'info' }];
  }
  const rows = isCancellation(err) ? [cancelledRow(idPrefix)] : failureRows(idPrefix, err, o);
  if (!o.retry) return rows;
  const own = rows[rows.length - 1];
  if (o.retryOnRow && !own.command) return [...rows.slice(0, -1), { ...own, description: 'click to retry', command: o.retry }];
  return [...rows, { id: `${idPrefix}/retry`, label: 'Retry', icon: 'refresh', command: o.retry }];
}

function cancelledRow(idPrefix: string): StatusRow {
  return { id: `${idPrefix}/cancelled`, label: 'Cancelled', icon: 'circle-slash', tooltip: 'The read was cancelled before it finished: nothing failed.', contextValue: 'cantonLedger:cancelled' };
}

function failureRows(idPrefix: string, err: unknown, o: ErrorRowOptions): StatusRow[] {
  const rows: StatusRow[] = [];
  const message = err instanceof Error ? err.message : String(err);
  const hint = err instanceof LedgerError || err instanceof PqsError ? err.hint : undefined;
  const tooltip = o.redact(`${message}${hint !== undefined ? `\n\n${hint}` : ''}`);
  const target = o.target ?? o.profileId;
  const updateToken = { command: Commands.setToken, title: 'Update Token', arguments: [target] };
  // The usual cause is the URL (a path prefix the participant is not served under): offer to edit it.
  if (err instanceof NotServedError && o.profileId) {
    rows.push({ id: `${idPrefix}/edit`, label: 'Edit Connection URL', description: o.redact(message), tooltip, icon: 'edit', command: { command: Commands.editConnection, title: 'Edit Connection', arguments: [target] } });
  }
  if (o.title !== undefined) {
    rows.push({ id: `${idPrefix}/error`, label: o.title, description: o.redact(message), tooltip, icon: 'error', iconColor: FAILED_COLOR, contextValue: 'cantonLedger:error' });
    // A withheld token is not the token's fault (its URL is not confirmed, or not encrypted): no new token mends it.
    if (err instanceof AuthError) rows.push({ id: `${idPrefix}/auth`, label: 'Update Token', icon: 'key', command: updateToken });
    return rows;
  }
  if (wantsToken(err)) {
    rows.push({
      id: `${idPrefix}/auth`,
      label: err instanceof AuthError && err.status === 403 ? 'Permission denied — Update Token' : 'Token rejected — Update Token',
      description: o.redact(message),
      tooltip,
      icon: 'key',
      iconColor: FAILED_COLOR,
      command: updateToken,
    });
    return rows;
  }
  // Not sent: the participant's own description says it would refuse it. Its report says what else it refuses.
  if (err instanceof IncompatibleRequestError) {
    rows.push(
      { id: `${idPrefix}/incompatible`, label: 'Not sent', description: o.redact(message), tooltip, icon: 'circle-slash', iconColor: FAILED_COLOR, contextValue: 'cantonLedger:error' },
      { id: `${idPrefix}/report`, label: SHOW_REPORT_TITLE, icon: 'checklist', command: { command: Commands.showCompatibilityReport, title: SHOW_REPORT_TITLE, arguments: target === undefined ? [] : [target] } },
    );
    return rows;
  }
  const code = err instanceof CantonApiError ? err.code : undefined;
  rows.push({
    id: `${idPrefix}/error`,
    label: o.redact(code ?? message),
    description: o.redact(code ? message : (hint ?? '')),
    tooltip,
    icon: 'error',
    iconColor: FAILED_COLOR,
    contextValue: 'cantonLedger:error',
  });
  return rows;
}
