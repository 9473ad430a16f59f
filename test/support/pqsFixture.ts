/**
 * A demo participant mirrored into a fresh database of the shared test cluster, and a read-only
 * reader role for the store (what a PQS user is given), for the PQS tests of every layer.
 */
import * as pg from 'pg';
import { loadPqsSchema, PqsLedgerFollower, pqsSchemaDumpAvailable, PqsWriter } from './pqsReal';
import { startDemoParticipant, type DemoParticipant } from '../../src/participant/index';
import type { PgDriver } from '../../src/core/pqs/store';
import type { PqsSettings } from '../../src/core/pqs/settings';
import { adminConfig, asAdmin, freshDatabase, stopSharedPostgres, type PostgresCluster } from './postgres';

export const READER = 'pqs_reader';
export const READER_PASSWORD = 'reader-secret-pw';
export const TLS_ONLY = 'tls_only';
export const PQS_SCHEMA = 'pqs';
export const pgDriver = (): PgDriver => pg as unknown as PgDriver;

/**
 * Which store a test reads: PQS's own schema (`real`, the oracle: `../shared/pqs/schema-dump.sql` filled as
 * PQS's writer fills it) or the demo participant's mirror (`demo`, the stand-in that must answer alike).
 */
export type StoreKind = 'real' | 'demo';

/** Both kinds where PQS's schema is beside the project; the demo mirror alone where it is not. */
export function storeKinds(): StoreKind[] {
  return pqsSchemaDumpAvailable() ? ['real', 'demo'] : ['demo'];
}

export interface MirroredDemo {
  kind: StoreKind;
  participant: DemoParticipant;
  cluster: PostgresCluster;
  database: string;
  /** Settings of the reader role, as a user would enter them. */
  settings: PqsSettings;
  /** Resolves when the store holds everything the ledger has appended so far. */
  synced(): Promise<void>;
  close(): Promise<void>;
}

/** Roles are per cluster: made once, whichever test comes first (two at once share the one making). */
const rolesMade = new WeakMap<PostgresCluster, Promise<void>>();
function ensureRoles(cluster: PostgresCluster): Promise<void> {
  let made = rolesMade.get(cluster);
  if (!made) rolesMade.set(cluster, (made = makeRoles(cluster)));
  return made;
}

async function makeRoles(cluster: PostgresCluster): Promise<void> {
  await asAdmin(cluster, 'postgres', async (c) => {
    for (const [role, pw] of [
      [READER, READER_PASSWORD],
      [TLS_ONLY, READER_PASSWORD],
    ]) {
      await c.query(`DO $$ BEGIN CREATE ROLE ${role} LOGIN PASSWORD '${pw}' IN ROLE pg_read_all_data; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    }
  });
}

/**
 * A demo participant whose ledger is in a PQS store of a fresh database: its own mirror (`demo`), or
 * PQS's schema written as PQS's writer would (`real`), following the ledger as it grows. `snapshotAt`
 * (real only): the ledger up to that offset arrives as PQS's ACS snapshot.
 */
export async function mirroredDemo(tag: string, statementTimeoutMs = 30_000, kind: StoreKind = 'demo', opts: { snapshotAt?: number; multiSynchronizer?: boolean } = {}): Promise<MirroredDemo> {
  const { cluster, database, url } = await freshDatabase(`${tag}_${kind}`);
  await ensureRoles(cluster);
  let close: () => Promise<void>;
  let synced: () => Promise<void>;
  let participant: DemoParticipant;
  if (kind === 'demo') {
    participant = await startDemoParticipant({ pqs: { url, schema: PQS_SCHEMA } });
    await participant.pqs!.synced();
    synced = () => participant.pqs!.synced();
    close = () => participant.close();
  } else {
    participant = await startDemoParticipant({});
    const store = await followInRealSchema(participant.state, cluster, database, opts);
    synced = store.synced;
    close = async () => {
      await store.stop();
      await participant.close();
    };
  }
  return {
    kind,
    participant,
    cluster,
    database,
    settings: { host: cluster.host, port: cluster.port, database, user: READER, schema: PQS_SCHEMA, sslmode: 'disable', statementTimeoutMs },
    synced,
    close,
  };
}

/**
 * PQS's own schema in `database`, filled from `ledger` as PQS's writer would and following it (several
 * stores can follow one ledger: the same contracts, parties and ids in each).
 */
export async function followInRealSchema(
  ledger: DemoParticipant['state'],
  cluster: PostgresCluster,
  database: string,
  opts: { snapshotAt?: number; multiSynchronizer?: boolean } = {},
): Promise<{ synced(): Promise<void>; stop(): Promise<void> }> {
  const writerSession = new pg.Client(adminConfig(cluster, database));
  // The cluster may stop before this session ends (the run's last hook): that is no failure of a test.
  writerSession.on('error', () => undefined);
  await writerSession.connect();
  await loadPqsSchema(writerSession, PQS_SCHEMA, { multiSynchronizer: opts.multiSynchronizer });
  const follower = new PqsLedgerFollower(ledger, new PqsWriter(writerSession, PQS_SCHEMA), opts.snapshotAt);
  await follower.start();
  return {
    synced: () => follower.synced(),
    stop: async () => {
      await follower.stop();
      await writerSession.end();
    },
  };
}

/** Root hook: the shared cluster stops once, after the whole run. */
export function stopPostgresAfterRun(): void {
  after(stopSharedPostgres);
}
