/** Runs the CLI in-process with captured output. */
import assert from 'node:assert/strict';
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

/** Starts `canton-ledger participant …` in-process; resolves once its banner is out. */
export async function startParticipantCommand(args: string[], env: Record<string, string> = {}) {
  const stdout = new Capture();
  const stderr = new Capture();
  const interrupt = new AbortController();
  const exited = run(['participant', '--port', '0', ...args], env, { stdout, stderr, signal: interrupt.signal });
  let status: number | undefined;
  void exited.then((s) => (status = s));
  while (!stdout.text.includes('Press Ctrl-C to stop.')) {
    if (status !== undefined) assert.fail(`participant exited with ${status}: ${stderr.text}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const url = /^ {2}URL: +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout.text)![1];
  const participantId = /^ {2}participant id: +(\S+)$/m.exec(stdout.text)![1];
  return {
    url,
    participantId,
    banner: stdout.text,
    /** Ctrl-C, then the exit status and the output. */
    async stop(): Promise<CliResult> {
      interrupt.abort();
      const s = await exited;
      return { status: s, stdout: stdout.text, stderr: stderr.text };
    },
  };
}
