/**
 * A throw-away PostgreSQL cluster for the tests: `initdb` into a temporary folder, a free port, the unix
 * socket in the same folder, stopped by pid when the run ends. One cluster serves every test file of a
 * run (started on the first request); each file makes its own database with {@link freshDatabase}.
 *
 * Run as root (CI), the server runs as the `postgres` user that Debian's package creates: initdb and
 * the postmaster refuse to run as root.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';

export interface PostgresCluster {
  host: string;
  port: number;
  /** The superuser tests use to set things up (the extension's reader is another, read-only role). */
  user: string;
  password: string;
  dir: string;
}

const SUPERUSER = 'pqs_admin';
const SUPERUSER_PASSWORD = 'admin-secret-pw';

let starting: Promise<PostgresCluster> | undefined;
let server: ChildProcess | undefined;
let clusterDir: string | undefined;

/** The PostgreSQL binaries of the installed major version, found without naming the version. */
export function postgresBin(name: string): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', name)))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin', name) : undefined;
}

export function postgresAvailable(): boolean {
  return postgresBin('initdb') !== undefined && postgresBin('postgres') !== undefined;
}

/** The shared cluster of this run, started on first use. */
export function sharedPostgres(): Promise<PostgresCluster> {
  starting ??= start();
  return starting;
}

/** Stops the shared cluster (idempotent); registered as a root `after` hook by the files that use it. */
export async function stopSharedPostgres(): Promise<void> {
  const proc = server;
  server = undefined;
  starting = undefined;
  if (proc && proc.exitCode === null && clusterDir) {
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    // The postmaster's own pid (under runuser the child is runuser, which does not pass SIGINT on).
    // SIGINT: PostgreSQL's "fast" shutdown (ends sessions, writes a checkpoint, exits).
    process.kill(postmasterPid(clusterDir), 'SIGINT');
    await exited;
  }
  if (clusterDir) fs.rmSync(clusterDir, { recursive: true, force: true });
  clusterDir = undefined;
}

function postmasterPid(dir: string): number {
  return Number(fs.readFileSync(path.join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function asServerUser(): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
}

async function start(): Promise<PostgresCluster> {
  const initdb = postgresBin('initdb');
  const postgres = postgresBin('postgres');
  if (!initdb || !postgres) throw new Error('PostgreSQL is not installed (/usr/lib/postgresql/*/bin)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pqs-test-pg-'));
  clusterDir = dir;
  const data = path.join(dir, 'data');
  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, SUPERUSER_PASSWORD);
  const runAs = asServerUser();
  if (runAs.length) execFileSync('chown', ['-R', 'postgres', dir]);
  const [cmd, ...pre] = [...runAs, initdb];
  execFileSync(cmd, [...pre, '-D', data, '-U', SUPERUSER, '--pwfile', pwfile, '-A', 'scram-sha-256', '--no-sync', '-E', 'UTF8', '--locale', 'C'], { stdio: 'ignore' });
  // One role may connect only with TLS, so the "TLS required" refusal can be tested without certificates.
  const hba = fs.readFileSync(path.join(data, 'pg_hba.conf'), 'utf8');
  fs.writeFileSync(path.join(data, 'pg_hba.conf'), `hostnossl all tls_only all reject\n${hba}`);
  const port = await freePort();
  const [scmd, ...spre] = [...runAs, postgres];
  const proc = spawn(
    scmd,
    [...spre, '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=60'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  server = proc;
  let log = '';
  proc.stderr?.on('data', (d) => (log += String(d)));
  const cluster: PostgresCluster = { host: '127.0.0.1', port, user: SUPERUSER, password: SUPERUSER_PASSWORD, dir };
  await waitReady(cluster, proc, () => log);
  return cluster;
}

async function waitReady(cluster: PostgresCluster, proc: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (proc.exitCode !== null) throw new Error(`postgres exited (${proc.exitCode}): ${log()}`);
    const client = new Client({ ...adminConfig(cluster, 'postgres') });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`postgres did not accept connections: ${log()}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function adminConfig(cluster: PostgresCluster, database: string): { host: string; port: number; user: string; password: string; database: string } {
  return { host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password, database };
}

let counter = 0;

/** A new empty database of the shared cluster, named after the test file's tag. */
export async function freshDatabase(tag: string): Promise<{ cluster: PostgresCluster; database: string; url: string }> {
  const cluster = await sharedPostgres();
  const database = `${tag.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${++counter}`;
  const admin = new Client(adminConfig(cluster, 'postgres'));
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  const url = `postgresql://${cluster.user}:${cluster.password}@${cluster.host}:${cluster.port}/${database}`;
  return { cluster, database, url };
}

/** Runs statements as the superuser in a database (setup only: roles, fixtures). */
export async function asAdmin<T>(cluster: PostgresCluster, database: string, run: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client(adminConfig(cluster, database));
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
