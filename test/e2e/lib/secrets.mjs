// Secrets the tests used, and the scan that proves none of them was written anywhere in the run dir.
//
// Registry: `<runDir>/secrets-used.txt`, one JSON-encoded string per line. UI checks call
// `registerSecret(runDir, value)` (the check context's `secret()`); in-host suites call
// `registerSecret()` from test/e2e/suite/helpers.ts, which appends to the same file through the
// E2E_RUN_DIR environment variable. The scan skips the registry itself.
import { appendFileSync, existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const SECRETS_FILE = 'secrets-used.txt';

export function registerSecret(runDir, value) {
  if (typeof value !== 'string' || value.length < 6) {
    throw new Error('registerSecret: a secret must be a string of at least 6 characters (shorter ones match by chance)');
  }
  appendFileSync(path.join(runDir, SECRETS_FILE), JSON.stringify(value) + '\n');
  return value;
}

export function readSecrets(runDir) {
  const file = path.join(runDir, SECRETS_FILE);
  if (!existsSync(file)) return [];
  const out = new Set();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.add(JSON.parse(line));
    } catch {
      out.add(line.trim()); // tolerate a raw line
    }
  }
  return [...out];
}

/**
 * The byte patterns one secret may take on disk: UTF-8 (= latin1 for ASCII), UTF-16LE (Chromium's
 * localStorage / IndexedDB strings), base64 and JSON-escaped forms.
 */
function needles(secret) {
  const forms = new Map();
  forms.set('utf8', Buffer.from(secret, 'utf8'));
  forms.set('utf16le', Buffer.from(secret, 'utf16le'));
  const json = JSON.stringify(secret).slice(1, -1);
  if (json !== secret) forms.set('json-escaped', Buffer.from(json, 'utf8'));
  if (secret.length >= 12) {
    // base64 of the secret at any of the three alignments (its middle is stable regardless of what precedes it).
    for (let shift = 0; shift < 3; shift++) {
      const b64 = Buffer.from('x'.repeat(shift) + secret, 'utf8').toString('base64');
      const start = shift === 0 ? 0 : 4;
      const core = b64.slice(start, b64.length - 4);
      if (core.length >= 12) forms.set(`base64/${shift}`, Buffer.from(core, 'latin1'));
    }
  }
  return [...forms];
}

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
    // sockets, fifos and symlinks are skipped (a symlink would point outside or back inside the run dir)
  }
}

/**
 * Searches every regular file under `dir` (binary files too, byte for byte) for each secret.
 * Returns `{ files, bytes, hits: [{ file, secretIndex, form }] }`.
 */
export function scanForSecrets(dir, secrets, { exclude = [path.join(dir, SECRETS_FILE)] } = {}) {
  const patterns = secrets.map((s, i) => ({ i, forms: needles(s) }));
  const hits = [];
  let files = 0;
  let bytes = 0;
  for (const file of walk(dir)) {
    if (exclude.includes(file)) continue;
    let buf;
    try {
      if (lstatSync(file).size > 1 << 30) continue;
      buf = readFileSync(file);
    } catch {
      continue; // vanished (a lock file) or unreadable
    }
    files++;
    bytes += buf.length;
    for (const { i, forms } of patterns) {
      for (const [form, needle] of forms) {
        if (buf.indexOf(needle) !== -1) {
          hits.push({ file: path.relative(dir, file), secretIndex: i, form });
          break;
        }
      }
    }
  }
  return { files, bytes, hits };
}

/** Describes a secret without printing it. */
export function describeSecret(secret) {
  return `#${secret.length}chars:${secret.slice(0, 3)}…`;
}
