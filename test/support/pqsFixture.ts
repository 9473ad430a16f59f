/**
 * A demo participant mirrored into a fresh database of the shared test cluster, and a read-only
 * reader role for the store (what a PQS user is given), for the PQS tests of every layer.
 */
import * as pg from 'pg';
import { startDemoParticipant, type DemoParticipant } from '../../src/participant/index';
import type { PgDriver } from '../../src/core/pqs/store';
import type { PqsSettings } from '../../src/core/pqs/settings';
import { asAdmin, freshDatabase, stopSharedPostgres, type PostgresCluster } from './postgres';

export const READER = 'pqs_reader';
export const READER_PASSWORD = 'reader-secret-pw';
export const TLS_ONLY = 'tls_only';
export const PQS_SCHEMA = 'pqs';
export const pgDriver = (): PgDriver => pg as unknown as PgDriver;

export interface MirroredDemo {
  participant: DemoParticipant;
  cluster: PostgresCluster;
  database: string;
  /** Settings of the reader role, as a user would enter them. */
  settings: PqsSettings;
  close(): Promise<void>;
}

/** Roles are per cluster: made once, whichever test file comes first. */
async function ensureRoles(cluster: PostgresCluster): Promise<void> {
  await asAdmin(cluster, 'postgres', async (c) => {
    for (const [role, pw] of [
      [READER, READER_PASSWORD],
      [TLS_ONLY, READER_PASSWORD],
    ]) {
      await c.query(`DO $$ BEGIN CREATE ROLE ${role} LOGIN PASSWORD '${pw}' IN ROLE pg_read_all_data; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    }
  });
}

export async function mirroredDemo(tag: string, statementTimeoutMs = 30_000): Promise<MirroredDemo> {
  const { cluster, database, url } = await freshDatabase(tag);
  await ensureRoles(cluster);
  const participant = await startDemoParticipant({ pqs: { url, schema: PQS_SCHEMA } });
  await participant.pqs!.synced();
  return {
    participant,
    cluster,
    database,
    settings: { host: cluster.host, port: cluster.port, database, user: READER, schema: PQS_SCHEMA, sslmode: 'disable', statementTimeoutMs },
    close: () => participant.close(),
  };
}

/** Root hook: the shared cluster stops once, after the whole run. */
export function stopPostgresAfterRun(): void {
  after(stopSharedPostgres);
}
