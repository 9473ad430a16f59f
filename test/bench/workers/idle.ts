/** A worker that reports progress `reports` times and then never answers: the harness's stall check is tested on it. */
import { workerMain } from '../lib';

workerMain<{ reports: number }, never>(async ({ reports }) => {
  for (let i = 0; i < reports; i++) process.send!({ offset: i });
  return new Promise<never>(() => setInterval(() => undefined, 60_000));
});
