/**
 * An address nothing listens on, for the tests of a participant that cannot be reached. A fixed "dead"
 * port (1, 9) may be taken on a shared machine; a port the system just gave out and took back is free
 * unless something took it since, which is unlikely in the moment between this and its use.
 */
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago: bound, closed, to be used at once. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `http://127.0.0.1:PORT` of a {@link deadPort}. */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await deadPort()}`;
}
