/** Runs the CLI in-process with captured output. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { run, type Env } from '../../src/cli/main';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `run(argv)` with an environment of only `env` (the real one could carry a token or URL). */
export async function cli(argv: string[], env: Env = {}, signal?: AbortSignal): Promise<CliResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const status = await run(argv, env, { stdout, stderr, signal });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

/** Writes `value` as JSON to `dir/name` and returns the path. */
export function writeJson(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/** The summary lines of human `updates` output (not the indented event lines). */
export function summaryLines(stdout: string): string[] {
  return stdout.split('\n').filter((l) => /^\d+ /.test(l));
}

/** The offset at the start of each summary line. */
export function offsetsOf(stdout: string): number[] {
  return summaryLines(stdout).map((l) => Number(l.split(' ', 1)[0]));
}
