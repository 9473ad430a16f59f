/**
 * `pqs`: questions over a Participant Query Store (PostgreSQL) through its public SQL functions:
 * `active TEMPLATE`, `history CONTRACT_ID`, `summary`, `query FILE.pqs.sql`, and `index TEMPLATE` (the
 * payload index a filter would use, printed, never run); as a table, JSON lines or CSV, written as the
 * rows arrive. The password comes from the environment (PGPASSWORD, or the URL in CANTON_LEDGER_PQS_URL),
 * never argv. The global `--timeout` is each query's deadline and, unless the URL sets one, the server's
 * statement_timeout.
 */
import { readFile } from 'node:fs/promises';
import * as pg from 'pg';
import type { CallOptions } from '../../core/api/http';
import { checkFilters, suggestedPayloadIndex } from '../../core/pqs/filter';
import { parsePqsUrl, describeSettings, DEFAULT_STATEMENT_TIMEOUT_MS } from '../../core/pqs/settings';
import { parseKeysetCursor, PqsStore, type PgDriver, type PqsContract } from '../../core/pqs/store';
import { PqsError } from '../../core/pqs/errors';
import { cellText, csvCell } from '../../core/pqs/resultsProtocol';
import { pqsNameOf } from '../../core/pqs/names';
import { expectPositionals, integerOption, stringList, stringOption, UsageError, type OptionValues } from '../args';
import { EXIT_FAILURE, EXIT_OK, type Command } from '../command';
import type { CliContext } from '../context';

const NAME = 'pqs';
export const PQS_URL_ENV = 'CANTON_LEDGER_PQS_URL';
const FORMATS = ['table', 'jsonl', 'csv'] as const;
type Format = (typeof FORMATS)[number];
const TEMPLATE = 'a TEMPLATE (package-name:Module:Entity, Module:Entity or Entity)';
/** The subcommands and the argument each needs. */
const ARGUMENT_OF = { active: TEMPLATE, history: 'a CONTRACT_ID', summary: undefined, query: 'a FILE.pqs.sql', index: TEMPLATE } as const;
type Subcommand = keyof typeof ARGUMENT_OF;
const DEFAULT_PAGE_SIZE = 500;
/**
 * How many rows of a table set its column widths. The rest are written in those widths as they arrive, so
 * a result of any size prints in bounded memory; a longer cell further down overflows its column.
 */
const TABLE_WIDTH_WINDOW = 1_000;
const MAX_COLUMN_WIDTH = 80;

export const pqsCommand: Command = {
  name: NAME,
  synopsis:
    'pqs active TEMPLATE [--at N | --as-of TIME] [--where PATH=VALUE]… [--limit N] [--after CURSOR] | history CONTRACT_ID | summary [--at N] | query FILE.pqs.sql [--explain] [--limit N] | index TEMPLATE --where PATH=VALUE…  [--pqs URL] [--format table|jsonl|csv]',
  summary: 'Ask a Participant Query Store (PostgreSQL) through its public SQL functions',
  details: [
    'TEMPLATE           as PQS names it (package-name:Module:Entity, Module:Entity, Entity) or as a template id (#package-name:…)',
    `--pqs URL          postgresql://user@host:5432/database?schema=…&sslmode=…&statement_timeout=MS (or ${PQS_URL_ENV});`,
    '                   the password from PGPASSWORD or the URL in the environment, never on the command line',
    '--at N             read at offset N (default: the store\'s latest offset, pinned for every page)',
    '--as-of TIME       read at the latest offset at or before TIME (nearest_offset), e.g. 2026-01-02T10:00:00Z',
    '--where P OP V     payload filter, repeatable: amount>=1000, owner=Alice::1220…, wallet.holder~bob',
    '                   (OP: = != < <= > >= ~); checked against the template\'s fields when --url is given',
    '--page-size N      rows per keyset page (default 500)',
    '--limit N          active: stop after N contracts (no page past them is read), and say on stderr where the',
    '                   next page starts; query: stop after N rows, and say so on stderr when that cut the result',
    '--after CURSOR     active: start after the row whose "cursor" column is CURSOR (c:N or a:N) — a script',
    '                   resumes there, and a page deep in the set is one call; give the same --at to page one snapshot',
    '--explain          query: show PostgreSQL\'s plan instead of running the statement',
    'index              print the create_index_for_contract(…) call whose index serves each --where, on the query\'s own',
    '                   expression, casts included (as the PQS view suggests it; never run: run it as the store\'s owner).',
    '                   Needs no database; with --url the template\'s field types decide text or numeric. A filter no',
    '                   index can serve (~, a substring): the reason on stderr and exit 1; the others\' calls are printed',
    '--format F         table (default), jsonl or csv (--json means jsonl); rows are written as they arrive',
    '                   (a table\'s column widths come from its first 1,000 rows)',
    '--timeout MS       (global) each query\'s deadline, and the server\'s statement_timeout unless the URL sets one',
    '                   (default: the URL\'s statement_timeout, else 30000)',
    'Database credentials bypass Daml\'s party authorization: what PQS shows is not filtered by party rights.',
  ],
  options: {
    pqs: { type: 'string' },
    at: { type: 'string' },
    'as-of': { type: 'string' },
    where: { type: 'string', multiple: true },
    'page-size': { type: 'string' },
    limit: { type: 'string' },
    after: { type: 'string' },
    explain: { type: 'boolean' },
    format: { type: 'string' },
  },
  async run(ctx, args) {
    const [sub, target] = expectPositionals(args, NAME, 'SUBCOMMAND [ARG]', 1, 2);
    const v = args.values;
    const format = formatOf(v, ctx);
    // Bad input is a usage error before any connection is made.
    if (!Object.hasOwn(ARGUMENT_OF, sub)) throw new UsageError(`unknown pqs subcommand "${sub}"; one of ${Object.keys(ARGUMENT_OF).join(', ')}`, NAME);
    const argument = ARGUMENT_OF[sub as Subcommand];
    if (argument && !target) throw new UsageError(`pqs ${sub} needs ${argument}`, NAME);
    // The extension's template ids (#package-name:Module:Entity, <package id>:Module:Entity) become PQS names.
    if (sub === 'index') return await index(ctx, pqsNameOf(target), v);
    const paging = pagingOf(v, sub);
    const store = storeOf(ctx, v);
    // One deadline for every query of the run: --timeout, else what the server itself allows.
    const o: CallOptions = { signal: ctx.signal, timeoutMs: ctx.globals.timeoutMs ?? store.settings.statementTimeoutMs };
    try {
      await store.connect(o);
      const check = store.checked!;
      if (check.verdict !== 'same') ctx.err(`note: the store's PQS interface is ${check.verdict} than ${check.knows}, which this tool knows${check.missing.length ? ` (missing: ${check.missing.join(', ')})` : ''}`);
      switch (sub) {
        case 'summary':
          return await summary(ctx, store, v, format, o);
        case 'active':
          return await active(ctx, store, pqsNameOf(target), v, format, paging, o);
        case 'history':
          return await history(ctx, store, target, format, o);
        default:
          return await query(ctx, store, target, v, format, paging, o);
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

interface Paging {
  limit: number | undefined;
  /** A keyset cursor as `pqs active` prints it (checked). */
  after: string | undefined;
}

function pagingOf(v: OptionValues, sub: string): Paging {
  const limit = integerOption(v, 'limit', 1, NAME);
  const after = stringOption(v, 'after');
  if (limit !== undefined && sub !== 'active' && sub !== 'query') throw new UsageError(`--limit is for pqs active and pqs query, not pqs ${sub}`, NAME);
  if (after === undefined) return { limit, after };
  if (sub !== 'active') throw new UsageError(`--after is for pqs active, not pqs ${sub}`, NAME);
  try {
    parseKeysetCursor(after);
  } catch (err) {
    if (err instanceof PqsError && err.kind === 'bad-cursor') throw new UsageError(`--after ${err.message}`, NAME);
    throw err;
  }
  return { limit, after };
}

function storeOf(ctx: CliContext, v: OptionValues): PqsStore {
  const fromArgv = stringOption(v, 'pqs');
  const url = fromArgv ?? ctx.env[PQS_URL_ENV];
  if (!url) throw new UsageError(`no PQS database: give --pqs postgresql://user@host:5432/database or set ${PQS_URL_ENV}`, NAME);
  // The server ends a statement at --timeout too, unless the URL sets its own statement_timeout.
  const { settings, password } = parsePqsUrl(url, ctx.globals.timeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  if (password && fromArgv) {
    throw new UsageError(`--pqs must not carry a password: the command line is visible to other users (ps) and kept in shell history. Set PGPASSWORD, or put the URL in ${PQS_URL_ENV}.`, NAME);
  }
  const secret = password ?? ctx.env.PGPASSWORD;
  ctx.registerSecret(secret);
  if (ctx.globals.verbose) ctx.err(`PQS: ${describeSettings(settings)}, statement_timeout ${settings.statementTimeoutMs} ms`);
  return new PqsStore(settings, async () => secret, () => pg as unknown as PgDriver);
}

async function pinnedOffset(store: PqsStore, v: OptionValues, o: CallOptions): Promise<number> {
  const at = integerOption(v, 'at', 0, NAME);
  const asOf = stringOption(v, 'as-of');
  if (at !== undefined && asOf !== undefined) throw new UsageError('--at and --as-of are alternatives: give one', NAME);
  if (at !== undefined) return at;
  if (asOf !== undefined) {
    if (Number.isNaN(Date.parse(asOf))) throw new UsageError(`--as-of "${asOf}" is not a time (e.g. 2026-01-02T10:00:00Z)`, NAME);
    const offset = await store.nearestOffset(asOf, o);
    if (offset === undefined) throw new PqsError('sql', `The store holds no offset at or before ${asOf}`);
    return offset;
  }
  const latest = (await store.watermark(o)).latest;
  if (latest === undefined) throw new PqsError('sql', 'The store holds no offset yet (latest_offset() is empty)');
  return latest;
}

async function summary(ctx: CliContext, store: PqsStore, v: OptionValues, format: Format, o: CallOptions): Promise<number> {
  const w = await store.watermark(o);
  const at = await pinnedOffset(store, v, o);
  const counts = await store.summary(at, o);
  if (format === 'table') await ctx.out(`Store: latest offset ${w.latest ?? '-'}, oldest ${w.oldest ?? '-'}, pruned ${w.pruned ?? '-'}; active contracts at ${at}:`);
  const out = new RowWriter(ctx, format, ['name', 'payload_type', 'count']);
  await out.write(counts.map((c) => [c.name, c.payloadType, c.count]));
  await out.end();
  return EXIT_OK;
}

async function active(ctx: CliContext, store: PqsStore, template: string, v: OptionValues, format: Format, paging: Paging, o: CallOptions): Promise<number> {
  const packages = ctx.globals.urlGiven ? await readPackageIndex(ctx) : undefined;
  const filters = checkFilters(stringList(v, 'where'), template, packages);
  const at = await pinnedOffset(store, v, o);
  const pageSize = integerOption(v, 'page-size', 1, NAME) ?? DEFAULT_PAGE_SIZE;
  const { limit } = paging;
  if (format === 'table') await ctx.out(`Active contracts of ${template} at offset ${at}${filters.length ? ` where ${stringList(v, 'where').join(' and ')}` : ''}${paging.after ? ` after ${paging.after}` : ''}:`);
  const out = new RowWriter(ctx, format, ['contract_id', 'template', 'created_at_offset', 'cursor', 'payload']);
  const row = (c: PqsContract) => [c.contractId, c.templateFqn, c.createdAtOffset ?? null, c.cursor, c.payload];
  let cursor = paging.after;
  let more = true;
  // A pager per page, started at the last row's cursor: written rows are not kept, so memory holds one page
  // whatever the size of the set, and the last page asks for no more than --limit leaves.
  while (more && (limit === undefined || out.count < limit)) {
    const asked = Math.min(pageSize, limit === undefined ? pageSize : limit - out.count);
    const page = store.activeContracts(template, at, filters, asked, cursor);
    await page.loadMore(o);
    if (ctx.globals.verbose) ctx.err(`PQS page: ${page.items.length} row${page.items.length === 1 ? '' : 's'} of ${asked} asked${cursor ? ` after ${cursor}` : ''}`);
    await out.write(page.items.map(row));
    cursor = page.items.at(-1)?.cursor ?? cursor;
    more = !page.complete;
  }
  await out.end();
  if (format === 'table') await ctx.out(`${out.count} contract${out.count === 1 ? '' : 's'}`);
  if (more) ctx.err(`note: stopped after ${limit} (--limit); the next page: --at ${at} --after ${cursor}`);
  return EXIT_OK;
}

async function readPackageIndex(ctx: CliContext) {
  const state = await ctx.connection().readPackages(ctx.signal);
  return state.state === 'ready' ? state.context.packages : undefined;
}

async function history(ctx: CliContext, store: PqsStore, contractId: string, format: Format, o: CallOptions): Promise<number> {
  const h = await store.history(contractId, o);
  if (!h) throw new PqsError('sql', `The store has no contract ${contractId} (lookup_contract found none)`);
  if (format === 'table') {
    await ctx.out(`${h.templateFqn} ${h.contractId}`);
    if (h.interfaceViews.length) await ctx.out(`interface views: ${h.interfaceViews.map((i) => i.interfaceFqn).join(', ')}`);
  }
  // Every row names the contract's template (never an interface view's), so JSON lines and CSV stand alone.
  const out = new RowWriter(ctx, format, ['kind', 'offset', 'at', 'template', 'choice', 'consuming', 'controllers', 'transaction_id']);
  await out.write(h.entries.map((e) => [e.kind, e.offset, e.at ?? null, h.templateFqn, e.choice ?? null, e.consuming ?? null, e.controllers ?? null, e.transactionId ?? null]));
  await out.end();
  return EXIT_OK;
}

async function query(ctx: CliContext, store: PqsStore, file: string, v: OptionValues, format: Format, paging: Paging, o: CallOptions): Promise<number> {
  let sql: string;
  try {
    sql = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`, NAME);
  }
  let out: RowWriter | undefined;
  // Rows are written batch by batch as the store reads them from its cursor: memory does not grow with the result.
  const r = await store.runSql(sql, o, {
    explain: v.explain === true,
    maxRows: paging.limit,
    onColumns: (columns) => void (out = new RowWriter(ctx, format, columns.map((c) => c.name))),
    onRows: (rows) => out!.write(rows),
  });
  out ??= new RowWriter(ctx, format, r.columns.map((c) => c.name));
  await out.end();
  if (format === 'table') await ctx.out(`${out.count} row${out.count === 1 ? '' : 's'} in ${r.elapsedMs} ms`);
  if (r.truncated) ctx.err(`note: stopped after ${paging.limit} rows (--limit); the statement has more`);
  return EXIT_OK;
}

/** `pqs index`: the index each filter would use, as the PQS view suggests it; nothing is sent anywhere. */
async function index(ctx: CliContext, template: string, v: OptionValues): Promise<number> {
  const texts = stringList(v, 'where');
  if (texts.length === 0) throw new UsageError('pqs index needs a --where PATH OP VALUE: the filter whose index to suggest', NAME);
  const packages = ctx.globals.urlGiven ? await readPackageIndex(ctx) : undefined;
  let served = true;
  for (const [i, f] of checkFilters(texts, template, packages).entries()) {
    const suggestion = suggestedPayloadIndex(template, f);
    if ('sql' in suggestion) {
      await ctx.out(suggestion.sql);
    } else {
      // Not an error of the command line: the filter is valid, and queries with it work, unserved by an index.
      ctx.err(`note: no index serves "${texts[i]}": ${suggestion.none}`);
      served = false;
    }
  }
  return served ? EXIT_OK : EXIT_FAILURE;
}

/**
 * Rows written in the format as they are handed over: JSON lines and CSV at once; a table once its first
 * {@link TABLE_WIDTH_WINDOW} rows have set the column widths (or at the end, for a shorter one). The head
 * is written even when no row comes.
 */
class RowWriter {
  /** Rows handed over so far. */
  count = 0;
  private headWritten = false;
  private widths: number[] | undefined;
  private readonly window: string[][] = [];

  constructor(
    private readonly ctx: CliContext,
    private readonly format: Format,
    private readonly columns: readonly string[],
  ) {}

  async write(rows: readonly (readonly unknown[])[]): Promise<void> {
    for (const r of rows) {
      this.count++;
      if (this.format === 'jsonl') {
        await this.ctx.out(JSON.stringify(Object.fromEntries(this.columns.map((c, i) => [c, r[i] instanceof Date ? (r[i] as Date).toISOString() : r[i] ?? null]))));
      } else if (this.format === 'csv') {
        await this.writeHead();
        await this.ctx.out(r.map(csvCell).join(','));
      } else if (this.widths) {
        await this.ctx.out(this.tableLine(r.map(cellText)));
      } else {
        this.window.push(r.map(cellText));
        if (this.window.length >= TABLE_WIDTH_WINDOW) await this.writeHead();
      }
    }
  }

  async end(): Promise<void> {
    await this.writeHead();
  }

  private async writeHead(): Promise<void> {
    if (this.headWritten || this.format === 'jsonl') return;
    this.headWritten = true;
    if (this.format === 'csv') return this.ctx.out(this.columns.map(csvCell).join(','));
    // A loop, not Math.max(...cells): a spread of many rows overflows the call stack.
    const widths = this.columns.map((c) => c.length);
    for (const r of this.window) for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], r[i].length);
    this.widths = widths.map((w) => Math.min(MAX_COLUMN_WIDTH, w));
    await this.ctx.out(this.tableLine(this.columns));
    await this.ctx.out(this.tableLine(this.widths.map((w) => '-'.repeat(w))));
    for (const r of this.window.splice(0)) await this.ctx.out(this.tableLine(r));
  }

  private tableLine(r: readonly string[]): string {
    return r.map((t, i) => (i === r.length - 1 ? t : t.padEnd(this.widths![i]))).join('  ').trimEnd();
  }
}
