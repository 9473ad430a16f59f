/**
 * Canton's own reference implementation of the prepared-transaction hash as a test oracle: the
 * unmodified upstream Python scripts in `../shared/canton-api/hashing/`, run through their driver
 * `run-reference.sh` (never copied here). It needs Debian's `protobuf-compiler` and `python3-protobuf`
 * (`.ci/run` installs them); without them the tests fail, they do not skip. Only a missing
 * `../shared` skips, loudly, as the spec-based tests do.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HashingScheme } from '../../src/core/preview/hash';
import { SPEC_DIR } from './spec';

export const HASH_REFERENCE = join(SPEC_DIR, 'hashing', 'run-reference.sh');

/** For `before`/`it` callbacks: skips, with a loud warning, when the reference is not beside the repository. */
export function requireHashReference(context: Mocha.Context): void {
  if (existsSync(HASH_REFERENCE)) return;
  const line = '!'.repeat(78);
  console.warn(`\n${line}\n!! Canton's hashing reference NOT FOUND at ${HASH_REFERENCE}\n!! The reference hash tests are SKIPPED.\n${line}\n`);
  context.skip();
}

/** What the reference says of one transaction under one scheme: its hash (hex), or that it refused to hash it. */
export type ReferenceHash = { hash: string } | { refused: string };

/** A transaction to hash, under one scheme or both (both: one run of the driver). */
export interface ReferenceJob {
  name: string;
  bytes: Uint8Array;
  schemes: readonly HashingScheme[];
}

let python: Promise<string | undefined> | undefined;

/**
 * The interpreter the driver would choose (the first of $PYTHON, python3, /usr/bin/python3 that imports
 * google.protobuf), chosen once and handed to every run: probing again costs each run a second where
 * `python3` is a version manager's shim without the module.
 */
function referencePython(): Promise<string | undefined> {
  const works = (candidate: string) => new Promise<boolean>((resolve) => execFile(candidate, ['-c', 'import google.protobuf'], (error) => resolve(!error)));
  python ??= (async () => {
    for (const candidate of [process.env.PYTHON, 'python3', '/usr/bin/python3']) if (candidate && (await works(candidate))) return candidate;
    return undefined;
  })();
  return python;
}

/** The reference's hashes of one transaction (one run of the driver): by scheme. */
export async function referenceHash(bytes: Uint8Array, schemes: readonly HashingScheme[]): Promise<Partial<Record<HashingScheme, ReferenceHash>>> {
  const both = schemes.length > 1;
  const flag = both ? '--both' : schemes[0] === 'V3' ? '--v3' : '--v2';
  const PYTHON = await referencePython();
  return new Promise((resolve, reject) => {
    const child = execFile(HASH_REFERENCE, [flag, '--bin', '-'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...(PYTHON ? { PYTHON } : {}) } }, (error, stdout, stderr) => {
      // 3: the driver's own set-up failed (no protoc, no python3-protobuf): a broken machine, not an answer.
      if (error && (error.code === 3 || typeof error.code !== 'number')) return reject(new Error(`run-reference.sh failed: ${stderr.trim() || error.message}`));
      if (error) {
        if (both) return reject(new Error(`run-reference.sh --both refused the transaction (ask one scheme at a time): ${stderr.trim()}`));
        return resolve({ [schemes[0]]: { refused: stderr.trim().split('\n').pop() ?? '' } });
      }
      const lines = stdout.trim().split('\n');
      const out: Partial<Record<HashingScheme, ReferenceHash>> = {};
      for (const scheme of schemes) {
        // With --both the lines are "v2 <hex>" and "v3 <hex>".
        const hash = both ? lines.find((l) => l.startsWith(`${scheme.toLowerCase()} `))?.slice(3) : lines[0];
        if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return reject(new Error(`run-reference.sh printed ${JSON.stringify(stdout)}`));
        out[scheme] = { hash };
      }
      resolve(out);
    });
    child.stdin!.end(bytes);
  });
}

/**
 * The reference's hashes of many transactions, by job name. The driver reads one transaction per run
 * (about a second: protoc, then Python), so the runs go a few at a time.
 */
export async function referenceHashes(jobs: readonly ReferenceJob[], parallel = 3): Promise<Map<string, Partial<Record<HashingScheme, ReferenceHash>>>> {
  const out = new Map<string, Partial<Record<HashingScheme, ReferenceHash>>>();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      out.set(job.name, await referenceHash(job.bytes, job.schemes));
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, jobs.length) }, worker));
  return out;
}
