/**
 * A demo participant mirrored into a throw-away PostgreSQL, in a process of its own, for the UI check
 * (`node --import tsx test/support/pqsDemoProcess.ts`): prints one JSON line (the participant's URL,
 * the reader's PQS URL and password), runs until SIGTERM or its stdin closes, then stops both.
 */
import { stopSharedPostgres } from './postgres';
import { mirroredDemo, PQS_SCHEMA, READER, READER_PASSWORD } from './pqsFixture';

async function main(): Promise<void> {
  const demo = await mirroredDemo('ui');
  const s = demo.settings;
  process.stdout.write(
    JSON.stringify({ participantUrl: demo.participant.url, pqsUrl: `postgresql://${READER}@${s.host}:${s.port}/${s.database}?schema=${PQS_SCHEMA}&sslmode=disable`, password: READER_PASSWORD, cluster: demo.cluster, database: demo.database }) + '\n',
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await demo.close().catch(() => undefined);
    await stopSharedPostgres().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
}

main().catch(async (err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  await stopSharedPostgres().catch(() => undefined);
  process.exit(1);
});
