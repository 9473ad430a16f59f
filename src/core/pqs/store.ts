/**
 * A Participant Query Store as this process reads it: a small pool of read-only PostgreSQL sessions,
 * every query with a deadline, an AbortSignal (Cancel cancels the server-side query), and the
 * server's statement_timeout. The driver (node-postgres) is handed in, so the extension loads it from
 * its own bundle on first use and the core does not import it.
 */
import type { CallOptions } from '../api/http';
import type { ReadPage } from '../paging';
import { OnDemandPages } from '../paging';
import { PqsError, pqsErrorOf, type FailureContext } from './errors';
import { checkInterface, queries, type InterfaceCheck, type KeysetCursor, type Query } from './interface';
import type { PayloadFilter } from './filter';
import { assertReadOnlyStatement, type ReadingStatement } from './sqlGuard';
import type { PqsSettings } from './settings';

/** What the store needs of node-postgres (`pg`): its Pool. */
export interface PgDriver {
  Pool: new (config: Record<string, unknown>) => PgPool;
}
export interface PgPool {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): unknown;
}
export interface PgPoolClient {
  query(q: { text: string; values?: unknown[]; rowMode?: 'array'; queryMode?: 'extended' }): Promise<PgResult>;
  release(err?: Error | boolean): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  removeListener(event: 'error', listener: (err: Error) => void): unknown;
  processID?: number;
}
export interface PgResult {
  rows: any[];
  fields: { name: string; dataTypeID: number }[];
  command?: string;
  rowCount?: number | null;
}

export const DEFAULT_DEADLINE_MS = 60_000;
const POOL_SIZE = 3;

export interface Watermark {
  latest: number | undefined;
  oldest: number | undefined;
  pruned: number | undefined;
}

export type PayloadType = 'template' | 'interface';

export interface TemplateCount {
  /** PQS's fully qualified name (`package-name:Module:Entity`). */
  name: string;
  /** A template's own contracts, or an interface's views of the contracts of the templates that implement it. */
  payloadType: PayloadType;
  count: number;
}

export interface PqsContract {
  contractId: string;
  templateFqn: string;
  payloadType: PayloadType;
  payload: unknown;
  /** Undefined for a contract assigned to this participant's synchronizer rather than created here (PQS's multi-synchronizer line). */
  createEventPk: number | undefined;
  createdAtOffset: number | undefined;
  assignedAtOffset: number | undefined;
  /** The offset from which the store holds it: its create, else its assignment. */
  offset: number;
  createdEffectiveAt: string | undefined;
  signatories: string[];
  observers: string[];
  /** Where the next keyset page starts after this row (text for `--after` and JSON lines). */
  cursor: string;
}

export interface HistoryEntry {
  kind: 'create' | 'exercise' | 'archive';
  offset: number;
  at: string | undefined;
  /** The transaction id at that offset, when the store's `transactions` view has it (the graph's key). */
  transactionId?: string;
  choice?: string;
  /** The template or interface that declares the choice. */
  choiceOf?: string;
  consuming?: boolean;
  controllers?: string[];
  argument?: unknown;
  result?: unknown;
}

export interface ContractHistory {
  contractId: string;
  /** The contract's template (never one of its interface views). */
  templateFqn: string;
  payload: unknown;
  /** The interfaces whose views the store holds of it, with each view's payload. */
  interfaceViews: { interfaceFqn: string; payload: unknown }[];
  entries: HistoryEntry[];
}

export interface SqlResult {
  columns: { name: string; typeId: number }[];
  rows: unknown[][];
  command: string | undefined;
  /** Rows delivered (to `onRows`, or in `rows`). */
  rowCount: number | null;
  elapsedMs: number;
  /** The cap (`maxRows`, or {@link DEFAULT_MAX_ROWS} without `onRows`) cut the result. */
  truncated: boolean;
}

export interface SqlRunOptions {
  explain?: boolean;
  maxRows?: number;
  onColumns?: (columns: { name: string; typeId: number }[]) => void | Promise<void>;
  /** Batches of rows as they are read; `rows` of the result is then empty. */
  onRows?: (rows: unknown[][]) => void | Promise<void>;
}

/** The rows `runSql` keeps when no `onRows` takes them. */
export const DEFAULT_MAX_ROWS = 10_000;
/** Rows per FETCH of a streamed query: bounds the memory a batch takes. */
const FETCH_BATCH = 1_000;
const CURSOR = 'canton_ledger_rows';

/** One session's statements, each sent alone by the extended protocol. */
interface Session {
  run(q: { text: string; values?: unknown[] }, how?: { rowMode?: 'array'; positionShift?: number }): Promise<PgResult>;
}

/** Whether the connected role could write: superuser, CREATE on the schema, or a writing privilege on one of its tables. */
const ROLE_WRITE_SQL = `SELECT current_user AS role, r.rolsuper AS superuser, has_schema_privilege($1, 'CREATE') AS can_create,
  coalesce((SELECT json_agg(json_build_object('privilege', p.privilege, 'count', p.n, 'examples', p.examples) ORDER BY p.privilege)
    FROM (SELECT w.privilege, count(*) AS n, (array_agg(format('%I', c.relname) ORDER BY c.relname))[1:3] AS examples
            FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
            CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS w(privilege)
           WHERE ns.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND has_table_privilege(c.oid, w.privilege)
           GROUP BY w.privilege) p), '[]') AS privileges
  FROM pg_roles r WHERE r.rolname = current_user`;

const num = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v));
const time = (v: unknown): string | undefined => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : undefined);

export class PqsStore {
  private pool: Promise<PgPool> | undefined;
  /** A separate one-session pool for cancels, so a cancel never waits behind the queries it cancels. */
  private cancelPool: Promise<PgPool> | undefined;
  private interfaceCheck: InterfaceCheck | undefined;
  private disposed = false;

  constructor(
    readonly settings: PqsSettings,
    private readonly password: () => Promise<string | undefined>,
    private readonly driver: () => PgDriver,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get schema(): string {
    return this.settings.schema;
  }

  /** The interface check made at connect (undefined before). */
  get checked(): InterfaceCheck | undefined {
    return this.interfaceCheck;
  }

  /**
   * Opens the pool, runs one query (so a wrong password or a TLS refusal shows here), and compares
   * the store's functions with what the query module knows. A database without PQS's functions is an
   * error; an older or newer store is connected, with the difference in the check.
   */
  async connect(o: CallOptions = {}): Promise<InterfaceCheck> {
    const rows = (await this.query(queries.catalog(this.schema), o)).rows as { name: string; columns: string[] }[];
    const check = checkInterface(rows);
    if (check.verdict === 'none') throw new PqsError('not-pqs', `Schema "${this.schema}" of database "${this.settings.database}" has none of the PQS functions (active, latest_offset, …)`);
    this.interfaceCheck = check;
    return check;
  }

  async watermark(o: CallOptions = {}): Promise<Watermark> {
    const row = (await this.query(queries.watermark(this.schema), o)).rows[0] ?? {};
    return { latest: num(row.latest), oldest: num(row.oldest), pruned: num(row.pruned) };
  }

  /** The offset of a time ("as of"): the latest offset at or before it; undefined before the store's first. */
  async nearestOffset(at: string, o: CallOptions = {}): Promise<number | undefined> {
    return num((await this.query(queries.nearestOffset(this.schema, at), o)).rows[0]?.offset);
  }

  /** Active contracts per template and per interface at the offset (`summary_active`). */
  async summary(atOffset: number, o: CallOptions = {}): Promise<TemplateCount[]> {
    const { rows } = await this.query(queries.summaryActive(this.schema, atOffset), o);
    return rows.map((r) => ({ name: String(r.template_fqn), payloadType: payloadTypeOf(r.payload_type), count: Number(r.count) }));
  }

  /** Keyset pages of a template's (or an interface's) contracts active at a pinned offset, from the start or after a cursor. */
  activeContracts(name: string, atOffset: number, filters: readonly PayloadFilter[] = [], pageSize = 100, startAfter?: string): ActiveContractPages {
    return new ActiveContractPages(this, name, atOffset, filters, pageSize, startAfter === undefined ? undefined : parseKeysetCursor(startAfter));
  }

  /** @internal one page of one keyset phase (used by {@link ActiveContractPages}). */
  async activePage(name: string, atOffset: number, cursor: KeysetCursor | undefined, limit: number, filters: readonly PayloadFilter[], o: CallOptions): Promise<PqsContract[]> {
    const { rows } = await this.query(queries.activePage(this.schema, name, atOffset, cursor, limit, filters, this.multiSynchronizer), o);
    return rows.map((r) => {
      const createEventPk = num(r.create_event_pk);
      const createdAtOffset = num(r.created_at_offset);
      const assignedAtOffset = num(r.assigned_at_offset);
      const key: KeysetCursor = createEventPk !== undefined ? { phase: 'created', after: createEventPk } : { phase: 'assigned', after: Number(r.assign_event_pk) };
      return {
        contractId: r.contract_id,
        templateFqn: r.template_fqn,
        payloadType: payloadTypeOf(r.payload_type),
        payload: r.payload,
        createEventPk,
        createdAtOffset,
        assignedAtOffset,
        offset: (createdAtOffset ?? assignedAtOffset)!,
        createdEffectiveAt: time(r.created_effective_at),
        signatories: r.signatories ?? [],
        observers: r.observers ?? [],
        cursor: formatKeysetCursor(key),
      };
    });
  }

  /** Whether the store may hold assigned contracts (PQS's multi-synchronizer line), as the connect check found. */
  get multiSynchronizer(): boolean {
    return this.interfaceCheck?.multiSynchronizer ?? false;
  }

  /**
   * A contract's life: its create, the choices exercised on it, its archive; undefined when the store has
   * no such contract. `lookup_contract` answers a row per payload — the template's and each interface
   * view's, in no order — so the template's row names the contract and the views are listed apart.
   */
  async history(contractId: string, o: CallOptions = {}): Promise<ContractHistory | undefined> {
    const rows = (await this.query(queries.lookupContract(this.schema, contractId), o)).rows;
    const contract = rows.find((r) => payloadTypeOf(r.payload_type) === 'template') ?? rows[0];
    if (!contract) return undefined;
    const interfaceViews = rows
      .filter((r) => r !== contract && payloadTypeOf(r.payload_type) === 'interface')
      .map((r) => ({ interfaceFqn: String(r.template_fqn), payload: r.payload }))
      .sort((a, b) => a.interfaceFqn.localeCompare(b.interfaceFqn));
    const exercises = (await this.query(queries.lookupExercises(this.schema, contractId), o)).rows;
    const entries: HistoryEntry[] = [];
    const created = num(contract.created_at_offset);
    if (created !== undefined) entries.push({ kind: 'create', offset: created, at: time(contract.created_effective_at) });
    for (const e of exercises) {
      entries.push({
        kind: 'exercise',
        offset: Number(e.exercised_at_offset),
        at: time(e.exercised_effective_at),
        choice: e.choice,
        choiceOf: e.template_fqn ?? undefined,
        consuming: e.consuming,
        controllers: e.controllers ?? [],
        argument: e.argument,
        result: e.result,
      });
    }
    const archived = num(contract.archived_at_offset);
    if (archived !== undefined) entries.push({ kind: 'archive', offset: archived, at: time(contract.archived_effective_at) });
    const ids = new Map<number, string>();
    try {
      const { rows: txs } = await this.query(queries.transactionIds(this.schema, [...new Set(entries.map((e) => e.offset))]), o);
      for (const r of txs) ids.set(Number(r.offset), r.transaction_id);
    } catch (err) {
      // A store without the transactions view still shows the history, without the graph links.
      if (!(err instanceof PqsError) || err.kind !== 'sql') throw err;
    }
    for (const e of entries) e.transactionId = ids.get(e.offset);
    return { contractId, templateFqn: contract.template_fqn, payload: contract.payload, interfaceViews, entries };
  }

  /**
   * Runs a `*.pqs.sql` statement: refused before sending unless it is one reading statement; rows as
   * arrays. A query is read through a server-side cursor, a batch at a time: with `onRows` each batch
   * goes to the caller (memory independent of the result's size), else rows are kept up to a cap.
   */
  async runSql(sql: string, o: CallOptions = {}, opts: SqlRunOptions = {}): Promise<SqlResult> {
    return this.runReading(assertReadOnlyStatement(sql), o, opts);
  }

  /** @internal A statement the guard let through, run on a session; tests call it with the guard bypassed. */
  protected async runReading(statement: ReadingStatement, o: CallOptions, opts: SqlRunOptions): Promise<SqlResult> {
    const started = this.now();
    const maxRows = opts.maxRows ?? (opts.onRows ? Infinity : DEFAULT_MAX_ROWS);
    const kept: unknown[][] = [];
    let columns: SqlResult['columns'] | undefined;
    let delivered = 0;
    let truncated = false;
    /** Hands on a batch (cut at the cap); false once the cap is reached. */
    const take = async (fields: PgResult['fields'], rows: unknown[][]): Promise<boolean> => {
      if (!columns) {
        columns = fields.map((f) => ({ name: f.name, typeId: f.dataTypeID }));
        await opts.onColumns?.(columns);
      }
      const room = maxRows - delivered;
      if (rows.length > room) {
        rows = rows.slice(0, room);
        truncated = true;
      }
      delivered += rows.length;
      if (rows.length && opts.onRows) await opts.onRows(rows);
      else for (const r of rows) kept.push(r);
      return !truncated;
    };
    const command = await this.withSession(o, async (session) => {
      if (statement.kind === 'query' && !opts.explain) {
        const declare = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR `;
        await session.run({ text: declare + statement.text }, { positionShift: declare.length });
        for (;;) {
          // One row past the cap tells whether the cap cut.
          const want = Math.min(FETCH_BATCH, maxRows - delivered + 1);
          const r = await session.run({ text: `FETCH FORWARD ${want} FROM ${CURSOR}` }, { rowMode: 'array' });
          if (!(await take(r.fields, r.rows)) || r.rows.length < want) return 'SELECT';
        }
      }
      const prefix = opts.explain ? 'EXPLAIN ' : '';
      const r = await session.run({ text: prefix + statement.text }, { rowMode: 'array', positionShift: prefix.length });
      await take(r.fields, r.rows);
      return r.command;
    });
    return { columns: columns ?? [], rows: kept, command, rowCount: delivered, truncated, elapsedMs: Math.round(this.now() - started) };
  }

  /** Whether the connected role could write to the store (so the view can say it should be a read-only role). */
  async roleCanWrite(o: CallOptions = {}): Promise<{ canWrite: boolean; reasons: string[] }> {
    const row = (await this.query({ text: ROLE_WRITE_SQL, values: [this.schema] }, o)).rows[0] ?? {};
    const reasons: string[] = [];
    if (row.superuser) reasons.push(`${row.role} is a superuser`);
    if (row.can_create) reasons.push(`${row.role} may create objects in schema "${this.schema}"`);
    for (const p of (row.privileges ?? []) as { privilege: string; count: number; examples: string[] }[]) {
      reasons.push(`${row.role} has ${p.privilege} on ${p.count} table${p.count === 1 ? '' : 's'} of "${this.schema}" (${p.examples.join(', ')}${p.count > p.examples.length ? ', …' : ''})`);
    }
    return { canWrite: reasons.length > 0, reasons };
  }

  /** One query on a pooled session, inside a read-only transaction (see {@link withSession}). */
  async query(query: Query, o: CallOptions = {}, rowMode?: 'array'): Promise<PgResult> {
    return this.withSession(o, async (session) => {
      // Planner settings hold for this statement's own read-only transaction only.
      for (const [name, value] of Object.entries(query.planner ?? {})) await session.run({ text: `SET LOCAL ${name} = ${value}` });
      return session.run(query, { rowMode });
    });
  }

  /**
   * Work on one pooled session: `START TRANSACTION READ ONLY`, the work's statements (each one
   * statement by the extended protocol, which refuses a text holding several, so none can end the
   * transaction), `ROLLBACK`, and `DISCARD ALL` before the session goes back to the pool, so nothing
   * a statement set stays for the next. A deadline (client side) and the signal both cancel the
   * running statement by its backend pid, so PostgreSQL stops working on it too; a session that was
   * cancelled, lost its connection, or could not be reset is closed, not pooled again.
   */
  private async withSession<T>(o: CallOptions, work: (session: Session) => Promise<T>): Promise<T> {
    if (this.disposed) throw new PqsError('cancelled', 'The PQS connection is closed');
    const ctx: FailureContext = { plainConnection: this.settings.sslmode === 'disable' || this.settings.sslmode === 'prefer' };
    if (o.signal?.aborted) throw new PqsError('cancelled', 'Cancelled before it was sent');
    const deadline = o.timeoutMs ?? DEFAULT_DEADLINE_MS;
    const cancelled = () => new PqsError(ctx.cancelledBy === 'user' ? 'cancelled' : 'timeout', ctx.cancelledBy === 'user' ? 'Cancelled' : `No answer within ${deadline} ms`);
    let client: PgPoolClient | undefined;
    let lost: Error | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    /** Stops the statement awaited now (and any later one): a cancel before the session was had, or the session's fault. */
    const stop = new Interrupt();
    /** A failure of the work itself (the caller's row handler), passed on as it is. */
    let callersOwn: unknown;
    // The checked-out session's own fault (the server gone, also between two statements) ends the
    // work as connection-lost, instead of an unhandled 'error' event.
    const onClientError = (err: Error) => {
      lost ??= err;
      stop.fire(err);
    };
    try {
      const pool = await this.ensurePool();
      const cancel = (by: 'user' | 'deadline') => {
        ctx.cancelledBy ??= by;
        if (client?.processID) void this.cancelBackend(client.processID);
        else stop.fire(cancelled());
      };
      // The deadline bounds each wait for the server (the connect, each statement), not the time the
      // caller's row handler takes between batches (a slow reader of a long streamed result).
      const waitingForServer = async <R>(p: Promise<R>): Promise<R> => {
        timer = setTimeout(() => cancel('deadline'), deadline);
        try {
          return await stop.race(p);
        } finally {
          clearTimeout(timer);
          timer = undefined;
        }
      };
      onAbort = () => cancel('user');
      o.signal?.addEventListener('abort', onAbort, { once: true });
      const connecting = pool.connect();
      try {
        client = await waitingForServer(connecting);
      } catch (err) {
        // Cancelled while the pool was connecting: the session it hands over later goes back at once.
        void connecting.then((c) => c.release(), () => undefined);
        throw err;
      }
      const c = client;
      c.on('error', onClientError);
      const fromSession = new WeakSet<object>();
      const run: Session['run'] = async (q, how = {}) => {
        ctx.positionShift = how.positionShift;
        try {
          if (lost) throw lost;
          if (ctx.cancelledBy) throw cancelled();
          return await waitingForServer(c.query({ text: q.text, values: q.values ?? [], queryMode: 'extended', ...(how.rowMode ? { rowMode: how.rowMode } : {}) }));
        } catch (err) {
          const e = pqsErrorOf(lost ?? err, ctx);
          fromSession.add(e);
          throw e;
        } finally {
          ctx.positionShift = undefined;
        }
      };
      let result: T;
      try {
        await run({ text: 'START TRANSACTION READ ONLY' });
        result = await work({ run });
        await this.reset(run);
      } catch (err) {
        // A statement the server refused, or the caller's own failure while reading, leaves a session
        // the reset makes clean; a lost, cancelled or unresettable one is closed.
        const sessionFault = err instanceof PqsError && fromSession.has(err);
        if (!sessionFault) callersOwn = err;
        const reusable = !lost && !ctx.cancelledBy && !(sessionFault && err.kind === 'connection-lost') && (await this.reset(run).then(() => true, () => false));
        client = undefined;
        this.releaseClient(c, onClientError, reusable ? undefined : err instanceof Error ? err : new Error(String(err)));
        throw err;
      }
      client = undefined;
      this.releaseClient(c, onClientError);
      return result;
    } catch (err) {
      if (client) this.releaseClient(client, onClientError, err instanceof Error ? err : new Error(String(err)));
      throw err === callersOwn ? err : pqsErrorOf(err, ctx);
    } finally {
      if (timer) clearTimeout(timer);
      if (onAbort) o.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async reset(run: Session['run']): Promise<void> {
    await run({ text: 'ROLLBACK' });
    await run({ text: 'DISCARD ALL' });
  }

  /** Back to the pool; with `destroy`, closed instead (its socket's end afterwards is nobody's fault). */
  private releaseClient(client: PgPoolClient, onClientError: (err: Error) => void, destroy?: Error): void {
    client.removeListener('error', onClientError);
    if (destroy) client.on('error', () => undefined);
    client.release(destroy);
  }

  private async cancelBackend(pid: number): Promise<void> {
    try {
      const c = await (await this.poolOf('cancelPool', 1)).connect();
      try {
        const q = queries.cancelBackend(pid);
        await c.query({ text: q.text, values: q.values });
      } finally {
        c.release();
      }
    } catch {
      // The query's own error (or its success) is what the caller sees; a failed cancel changes neither.
    }
  }

  private ensurePool(): Promise<PgPool> {
    return this.poolOf('pool', POOL_SIZE);
  }

  /** Each pool is made once, also when queries ask for it at the same time; a failure to make it is not kept. */
  private poolOf(which: 'pool' | 'cancelPool', max: number): Promise<PgPool> {
    const made = (this[which] ??= this.newPool(max));
    made.catch(() => {
      if (this[which] === made) this[which] = undefined;
    });
    return made;
  }

  private async newPool(max: number): Promise<PgPool> {
    let driver: PgDriver;
    try {
      driver = this.driver();
    } catch (err) {
      throw new PqsError('driver-missing', 'The PostgreSQL driver could not be loaded', undefined, undefined, { cause: err });
    }
    const s = this.settings;
    const pool = new driver.Pool({
      host: s.host,
      port: s.port,
      database: s.database,
      user: s.user,
      password: await this.password(),
      ssl: sslOption(s.sslmode),
      max,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 15_000,
      application_name: 'canton-ledger-explorer',
      // Every session reads only, and the server ends any statement that runs past the limit.
      // Strings as the guard reads them: a backslash in '…' is a backslash, whatever the server's default.
      options: `-c default_transaction_read_only=on -c statement_timeout=${s.statementTimeoutMs} -c search_path=${s.schema} -c standard_conforming_strings=on`,
    });
    // An idle session whose server went away: the pool drops it; the next query reports the fault.
    pool.on('error', () => undefined);
    return pool;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const pools = [this.pool, this.cancelPool];
    this.pool = this.cancelPool = undefined;
    await Promise.all(pools.map((p) => p?.then((pool) => pool.end()).catch(() => undefined)));
  }
}

/**
 * Ends what is awaited once it fires. Unlike `Promise.race` with one long-lived promise, it keeps no
 * reaction per awaited statement, so a session streaming many batches does not keep every batch's rows.
 */
class Interrupt {
  private fired: Error | undefined;
  private readonly waiting = new Set<(err: Error) => void>();

  fire(err: Error): void {
    this.fired ??= err;
    for (const reject of this.waiting) reject(err);
    this.waiting.clear();
  }

  race<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.fired) return reject(this.fired);
      this.waiting.add(reject);
      p.then(resolve, reject).finally(() => this.waiting.delete(reject));
    });
  }
}

function sslOption(mode: PqsSettings['sslmode']): boolean | Record<string, unknown> {
  if (mode === 'disable' || mode === 'prefer') return false;
  if (mode === 'require') return { rejectUnauthorized: false };
  return { rejectUnauthorized: true, ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}) };
}

/** `template`/`interface` from PQS's `__payload_type` (sent as text). */
function payloadTypeOf(v: unknown): PayloadType {
  return v === 'interface' ? 'interface' : 'template';
}

/** A keyset cursor as text: `c:<create_event_pk>` or `a:<assign_event_pk>`. */
export function formatKeysetCursor(c: KeysetCursor): string {
  return `${c.phase === 'created' ? 'c' : 'a'}:${c.after}`;
}

/** Reads a cursor printed by {@link formatKeysetCursor}; anything else is a `bad-cursor` error. */
export function parseKeysetCursor(text: string): KeysetCursor {
  const m = /^([ca]):(\d{1,15})$/.exec(text.trim());
  if (!m) throw new PqsError('bad-cursor', `"${text}" is not a page cursor (c:N or a:N, as the "cursor" of a JSON line)`, undefined, 0);
  return { phase: m[1] === 'c' ? 'created' : 'assigned', after: Number(m[2]) };
}

/**
 * "Load more" over a template's active contracts at one offset: keyset pages. The created contracts come
 * first, by `create_event_pk`; in a store of the multi-synchronizer line the assigned ones follow, by
 * `assign_event_pk`, so none is dropped and none read twice.
 */
export class ActiveContractPages extends OnDemandPages<PqsContract, KeysetCursor> {
  constructor(
    private readonly store: PqsStore,
    readonly name: string,
    readonly atOffset: number,
    readonly filters: readonly PayloadFilter[],
    private readonly pageSize: number,
    startAfter?: KeysetCursor,
  ) {
    super();
    this.next = startAfter;
  }

  get items(): readonly PqsContract[] {
    return this.loaded;
  }

  protected async readPage(cursor: KeysetCursor | undefined, o: CallOptions): Promise<ReadPage<PqsContract, KeysetCursor>> {
    // One more than a page tells whether another page follows without a count.
    let rows = await this.store.activePage(this.name, this.atOffset, cursor, this.pageSize + 1, this.filters, o);
    if (rows.length <= this.pageSize && (cursor?.phase ?? 'created') === 'created' && this.store.multiSynchronizer) {
      const rest = await this.store.activePage(this.name, this.atOffset, { phase: 'assigned', after: -1 }, this.pageSize + 1 - rows.length, this.filters, o);
      rows = rows.concat(rest);
    }
    const items = rows.slice(0, this.pageSize);
    return { items, next: rows.length > this.pageSize ? parseKeysetCursor(items[items.length - 1].cursor) : undefined };
  }
}
