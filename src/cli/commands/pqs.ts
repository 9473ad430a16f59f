/**
 * `pqs`: questions over a Participant Query Store (PostgreSQL) through its public SQL functions:
 * `active TEMPLATE`, `history CONTRACT_ID`, `summary`, `query FILE.pqs.sql`; as a table, JSON lines or CSV.
 * The password comes from the environment (PGPASSWORD, or the URL in CANTON_LEDGER_PQS_URL), never argv.
 */
import { readFile } from 'node:fs/promises';
import * as pg from 'pg';
import { checkFilters } from '../../core/pqs/filter';
import { parsePqsUrl, describeSettings } from '../../core/pqs/settings';
import { PqsStore, type PgDriver } from '../../core/pqs/store';
import { PqsError } from '../../core/pqs/errors';
import { pqsNameOf } from '../../core/pqs/names';
import { expectPositionals, integerOption, stringList, stringOption, UsageError, type OptionValues } from '../args';
import { EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';

const NAME = 'pqs';
export const PQS_URL_ENV = 'CANTON_LEDGER_PQS_URL';
const FORMATS = ['table', 'jsonl', 'csv'] as const;
type Format = (typeof FORMATS)[number];

export const pqsCommand: Command = {
  name: NAME,
  synopsis: 'pqs active TEMPLATE [--at N | --as-of TIME] [--where PATH=VALUE]… | history CONTRACT_ID | summary [--at N] | query FILE.pqs.sql [--explain]  [--pqs URL] [--format table|jsonl|csv]',
  summary: 'Ask a Participant Query Store (PostgreSQL) through its public SQL functions',
  details: [
    'TEMPLATE           as PQS names it (package-name:Module:Entity, Module:Entity, Entity) or as a template id (#package-name:…)',
    `--pqs URL          postgresql://user@host:5432/database?schema=…&sslmode=… (or ${PQS_URL_ENV});`,
    '                   the password from PGPASSWORD or the URL in the environment, never on the command line',
    '--at N             read at offset N (default: the store\'s latest offset, pinned for every page)',
    '--as-of TIME       read at the latest offset at or before TIME (nearest_offset), e.g. 2026-01-02T10:00:00Z',
    '--where P OP V     payload filter, repeatable: amount>=1000, owner=Alice::1220…, wallet.holder~bob',
    '                   (OP: = != < <= > >= ~); checked against the template\'s fields when --url is given',
    '--page-size N      rows per keyset page (default 500)',
    '--explain          query: show PostgreSQL\'s plan instead of running the statement',
    '--format F         table (default), jsonl or csv (--json means jsonl)',
    'Database credentials bypass Daml\'s party authorization: what PQS shows is not filtered by party rights.',
  ],
  options: {
    pqs: { type: 'string' },
    at: { type: 'string' },
    'as-of': { type: 'string' },
    where: { type: 'string', multiple: true },
    'page-size': { type: 'string' },
    explain: { type: 'boolean' },
    format: { type: 'string' },
  },
  async run(ctx, args) {
    const [sub, target] = expectPositionals(args, NAME, 'SUBCOMMAND [ARG]', 1, 2);
    const v = args.values;
    const format = formatOf(v, ctx);
    const store = storeOf(ctx, v);
    try {
      await store.connect(ctx.callOptions);
      const check = store.checked!;
      if (check.verdict !== 'same') ctx.err(`note: the store's PQS interface is ${check.verdict} than ${check.knows}, which this tool knows${check.missing.length ? ` (missing: ${check.missing.join(', ')})` : ''}`);
      switch (sub) {
        case 'summary':
          return await summary(ctx, store, v, format);
        case 'active':
          if (!target) throw new UsageError('pqs active needs a TEMPLATE (package-name:Module:Entity, Module:Entity or Entity)', NAME);
          // The extension's template ids (#package-name:Module:Entity, <package id>:Module:Entity) become PQS names.
          return await active(ctx, store, pqsNameOf(target), v, format);
        case 'history':
          if (!target) throw new UsageError('pqs history needs a CONTRACT_ID', NAME);
          return await history(ctx, store, target, format);
        case 'query':
          if (!target) throw new UsageError('pqs query needs a FILE.pqs.sql', NAME);
          return await query(ctx, store, target, v, format);
        default:
          throw new UsageError(`unknown pqs subcommand "${sub}"; one of active, history, summary, query`, NAME);
      }
    } finally {
      await store.dispose();
    }
  },
};

function formatOf(v: OptionValues, ctx: CliContext): Format {
  const raw = stringOption(v, 'format') ?? (ctx.globals.json ? 'jsonl' : 'table');
  if (!(FORMATS as readonly string[]).includes(raw)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${raw}"`, NAME);
  return raw as Format;
}

function storeOf(ctx: CliContext, v: OptionValues): PqsStore {
  const fromArgv = stringOption(v, 'pqs');
  const url = fromArgv ?? ctx.env[PQS_URL_ENV];
  if (!url) throw new UsageError(`no PQS database: give --pqs postgresql://user@host:5432/database or set ${PQS_URL_ENV}`, NAME);
  const { settings, password } = parsePqsUrl(url);
  if (password && fromArgv) {
    throw new UsageError(`--pqs must not carry a password: the command line is visible to other users (ps) and kept in shell history. Set PGPASSWORD, or put the URL in ${PQS_URL_ENV}.`, NAME);
  }
  const secret = password ?? ctx.env.PGPASSWORD;
  ctx.registerSecret(secret);
  if (ctx.globals.verbose) ctx.err(`PQS: ${describeSettings(settings)}`);
  return new PqsStore(settings, async () => secret, () => pg as unknown as PgDriver);
}

async function pinnedOffset(ctx: CliContext, store: PqsStore, v: OptionValues): Promise<number> {
  const at = integerOption(v, 'at', 0, NAME);
  const asOf = stringOption(v, 'as-of');
  if (at !== undefined && asOf !== undefined) throw new UsageError('--at and --as-of are alternatives: give one', NAME);
  if (at !== undefined) return at;
  if (asOf !== undefined) {
    if (Number.isNaN(Date.parse(asOf))) throw new UsageError(`--as-of "${asOf}" is not a time (e.g. 2026-01-02T10:00:00Z)`, NAME);
    const offset = await store.nearestOffset(asOf, ctx.callOptions);
    if (offset === undefined) throw new PqsError('sql', `The store holds no offset at or before ${asOf}`);
    return offset;
  }
  const latest = (await store.watermark(ctx.callOptions)).latest;
  if (latest === undefined) throw new PqsError('sql', 'The store holds no offset yet (latest_offset() is empty)');
  return latest;
}

async function summary(ctx: CliContext, store: PqsStore, v: OptionValues, format: Format): Promise<number> {
  const w = await store.watermark(ctx.callOptions);
  const at = await pinnedOffset(ctx, store, v);
  const counts = await store.summary(at, ctx.callOptions);
  if (format === 'table') await ctx.out(`Store: latest offset ${w.latest ?? '-'}, oldest ${w.oldest ?? '-'}, pruned ${w.pruned ?? '-'}; active contracts at ${at}:`);
  await writeRows(ctx, format, ['name', 'count'], counts.map((c) => [c.name, c.count]));
  return EXIT_OK;
}

async function active(ctx: CliContext, store: PqsStore, template: string, v: OptionValues, format: Format): Promise<number> {
  const packages = ctx.globals.urlGiven ? await readPackageIndex(ctx) : undefined;
  const filters = checkFilters(stringList(v, 'where'), template, packages);
  const at = await pinnedOffset(ctx, store, v);
  const pages = store.activeContracts(template, at, filters, integerOption(v, 'page-size', 1, NAME) ?? 500);
  const columns = ['contract_id', 'template', 'created_at_offset', 'payload'];
  if (format === 'table') await ctx.out(`Active contracts of ${template} at offset ${at}${filters.length ? ` where ${stringList(v, 'where').join(' and ')}` : ''}:`);
  let written = 0;
  const rows = (from: number) => pages.items.slice(from).map((c) => [c.contractId, c.templateFqn, c.createdAtOffset, c.payload]);
  if (format !== 'table') await writeRows(ctx, format, columns, [], true);
  // Page by page as they come: a million rows never sit in memory at once in jsonl/csv.
  do {
    await pages.loadMore(ctx.callOptions);
    if (format !== 'table') await writeRows(ctx, format, columns, rows(written), false);
    written = pages.loadedCount;
  } while (!pages.complete);
  if (format === 'table') await writeRows(ctx, format, columns, rows(0));
  if (format === 'table') await ctx.out(`${pages.loadedCount} contract${pages.loadedCount === 1 ? '' : 's'}`);
  return EXIT_OK;
}

async function readPackageIndex(ctx: CliContext) {
  const state = await ctx.connection().readPackages(ctx.signal);
  return state.state === 'ready' ? state.context.packages : undefined;
}

async function history(ctx: CliContext, store: PqsStore, contractId: string, format: Format): Promise<number> {
  const h = await store.history(contractId, ctx.callOptions);
  if (!h) throw new PqsError('sql', `The store has no contract ${contractId} (lookup_contract found none)`);
  if (format === 'table') await ctx.out(`${h.templateFqn} ${h.contractId}`);
  await writeRows(
    ctx,
    format,
    ['kind', 'offset', 'at', 'choice', 'consuming', 'controllers', 'transaction_id'],
    h.entries.map((e) => [e.kind, e.offset, e.at ?? null, e.choice ?? null, e.consuming ?? null, e.controllers ?? null, e.transactionId ?? null]),
  );
  return EXIT_OK;
}

async function query(ctx: CliContext, store: PqsStore, file: string, v: OptionValues, format: Format): Promise<number> {
  let sql: string;
  try {
    sql = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`, NAME);
  }
  const r = await store.runSql(sql, ctx.callOptions, { explain: v.explain === true });
  await writeRows(ctx, format, r.columns.map((c) => c.name), r.rows);
  if (format === 'table') await ctx.out(`${r.rows.length} row${r.rows.length === 1 ? '' : 's'} in ${r.elapsedMs} ms`);
  return EXIT_OK;
}

/** A cell as text: JSON for objects and arrays, ISO for times, empty for null. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function csvCell(v: unknown): string {
  const t = cellText(v);
  return /[",\n\r]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/**
 * Rows in the format; `header` false continues a table already started (jsonl and csv are written page
 * by page), `header` true with no rows writes only the head.
 */
async function writeRows(ctx: CliContext, format: Format, columns: string[], rows: readonly unknown[][], header?: boolean): Promise<void> {
  if (format === 'jsonl') {
    for (const r of rows) await ctx.out(JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, r[i] instanceof Date ? (r[i] as Date).toISOString() : r[i] ?? null]))));
    return;
  }
  if (format === 'csv') {
    if (header !== false) await ctx.out(columns.map(csvCell).join(','));
    for (const r of rows) await ctx.out(r.map(csvCell).join(','));
    return;
  }
  const cells = rows.map((r) => r.map(cellText));
  const widths = columns.map((c, i) => Math.min(80, Math.max(c.length, ...cells.map((r) => r[i].length))));
  const line = (r: string[]) => r.map((t, i) => (i === r.length - 1 ? t : t.padEnd(widths[i]))).join('  ').trimEnd();
  await ctx.out(line(columns));
  await ctx.out(line(widths.map((w) => '-'.repeat(w))));
  for (const r of cells) await ctx.out(line(r));
}
