/**
 * The messages between the PQS result grid's panel (extension host) and its page (a webview). The
 * host keeps the whole result and sends one page of rows at a time, with the time taken and whether
 * the row cap cut the result; the page asks for another page, or for a copy of the rows as CSV or
 * JSON (the host writes the clipboard). Plain data both ways; the texts the page shows are made here,
 * so that the page, the glue and the tests say the same.
 */
import type { SqlResult } from './store';

export const RESULTS_VIEW_TYPE = 'cantonLedger.pqsResults';
export const RESULTS_PAGE_SIZE = 200;

/** One page of a result, as the page draws it. */
export interface ResultsView {
  /** Which run: a new one resets what the page had open and where its focus was. */
  runId: number;
  title: string;
  columns: string[];
  /** This page's rows: JSON values (a time as its ISO text). */
  rows: unknown[][];
  /** From 0. */
  page: number;
  pages: number;
  pageSize: number;
  /** Rows in the whole result. */
  rowCount: number;
  /** The row cap cut the result: the statement returned more. */
  truncated: boolean;
  elapsedMs: number;
  /** `EXPLAIN` output rather than rows. */
  explain: boolean;
}

export type CopyFormat = 'csv' | 'json';

export type ToResultsPage =
  | ({ type: 'results' } & ResultsView)
  /** The rows went to the clipboard. */
  | { type: 'copied'; format: CopyFormat; rowCount: number };

export type FromResultsPage = { type: 'ready' } | { type: 'page'; runId: number; page: number } | { type: 'copy'; format: CopyFormat };

/** A run as the host keeps it. */
export interface ResultsRun {
  runId: number;
  title: string;
  result: SqlResult;
  explain: boolean;
}

/** Page `page` of a run (clamped to the pages there are). */
export function resultsView(run: ResultsRun, page: number, pageSize = RESULTS_PAGE_SIZE): ResultsView {
  const r = run.result;
  const pages = Math.max(1, Math.ceil(r.rows.length / pageSize));
  const at = Math.min(Math.max(0, Math.trunc(page) || 0), pages - 1);
  return {
    runId: run.runId,
    title: run.title,
    columns: r.columns.map((c) => c.name),
    rows: r.rows.slice(at * pageSize, (at + 1) * pageSize).map((row) => row.map(plainCell)),
    page: at,
    pages,
    pageSize,
    rowCount: r.rows.length,
    truncated: r.truncated,
    elapsedMs: r.elapsedMs,
    explain: run.explain,
  };
}

/** A cell as a JSON value: a time as ISO text, a big integer as its digits. */
function plainCell(v: unknown): unknown {
  if (v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'bigint') return v.toString();
  return v;
}

/** "N rows in M ms": the line above the grid. */
export function resultsSummary(v: Pick<ResultsView, 'rowCount' | 'elapsedMs' | 'explain'>): string {
  return `${v.rowCount} row${v.rowCount === 1 ? '' : 's'} in ${v.elapsedMs} ms${v.explain ? ' (EXPLAIN)' : ''}`;
}

/** Said on a line of its own when the row cap cut the result, so that nobody takes the first rows for the whole answer. */
export function truncatedLine(v: Pick<ResultsView, 'rowCount' | 'truncated'>): string | undefined {
  return v.truncated ? `Showing the first ${v.rowCount} rows; the statement returned more.` : undefined;
}

/** A cell as text: empty for NULL, ISO for a time, JSON for objects and arrays (the grid's copy and the CLI's output). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A cell as CSV (RFC 4180 quoting). */
export function csvCell(v: unknown): string {
  const t = cellText(v);
  return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/** Rows as CSV (RFC 4180 quoting; JSON for objects). */
export function resultsCsv(r: Pick<SqlResult, 'columns' | 'rows'>): string {
  return [r.columns.map((c) => csvCell(c.name)).join(','), ...r.rows.map((row) => row.map(csvCell).join(','))].join('\n') + '\n';
}

/** Rows as a JSON array of objects keyed by column name. */
export function resultsJson(r: Pick<SqlResult, 'columns' | 'rows'>): string {
  return JSON.stringify(r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i] ?? null]))), null, 2) + '\n';
}
