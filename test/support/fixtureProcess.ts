/**
 * A test fixture in a process of its own (a UI check starts it with `node --import tsx FILE`): prints
 * what `start` made as one JSON line, runs until SIGTERM, SIGINT or its stdin closes, then closes it
 * and stops the shared PostgreSQL cluster. A failure to start is printed and exits 1.
 */
import { stopSharedPostgres } from './postgres';

export function runFixtureProcess(start: () => Promise<{ printed: unknown; close(): Promise<void> }>): void {
  start()
    .then(({ printed, close }) => {
      process.stdout.write(JSON.stringify(printed) + '\n');
      let stopping = false;
      const stop = async () => {
        if (stopping) return;
        stopping = true;
        await close().catch(() => undefined);
        await stopSharedPostgres().catch(() => undefined);
        process.exit(0);
      };
      process.on('SIGTERM', () => void stop());
      process.on('SIGINT', () => void stop());
      process.stdin.on('end', () => void stop());
      process.stdin.resume();
    })
    .catch(async (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      await stopSharedPostgres().catch(() => undefined);
      process.exit(1);
    });
}
