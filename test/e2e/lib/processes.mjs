// code-server processes for the e2e run: start (detached, its own process group), wait until healthy,
// stop (the whole group). Every started group is tracked, and killed on exit, SIGINT, SIGTERM and
// uncaught errors, so a run never leaves code-server or its extension hosts behind.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';

const groups = new Set();
const cleanups = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Registers an async cleanup (closing the browser, say) that runs before process groups are killed. */
export function onCleanup(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

let cleaning;
/** Runs the registered cleanups, then SIGTERMs every tracked group and SIGKILLs what is left after 3 s. */
export function cleanupAll() {
  cleaning ??= (async () => {
    for (const fn of [...cleanups].reverse()) {
      try {
        await Promise.race([fn(), new Promise((r) => setTimeout(r, 5000).unref())]);
      } catch {
        /* best effort */
      }
    }
    cleanups.clear();
    await Promise.all([...groups].map((pid) => stopGroup(pid)));
  })();
  return cleaning;
}

async function stopGroup(pid, graceMs = 3000) {
  if (!killGroup(pid, 'SIGTERM')) {
    groups.delete(pid);
    return;
  }
  const until = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
  groups.delete(pid);
}

let installed = false;
/** Kills everything on exit and on signals; `onSignal(sig)` lets the runner print its summary first. */
export function installExitHandlers(onSignal) {
  if (installed) return;
  installed = true;
  // Last resort, synchronous: whatever is still tracked when the process exits.
  process.on('exit', () => {
    for (const pid of groups) killGroup(pid, 'SIGKILL');
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, async () => {
      console.log(`\n[e2e] ${sig}: stopping code-server and the browser`);
      try {
        await onSignal?.(sig);
      } finally {
        await cleanupAll();
        process.exit(sig === 'SIGINT' ? 130 : 143);
      }
    });
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server: `node entry.js --auth none --bind-addr 127.0.0.1:PORT ... WORKSPACE` in its own
 * process group, output to `logFile`. Resolves when GET /healthz answers 200.
 */
export async function startCodeServer({ node, entry, port, userDataDir, extensionsDir, workspace, env, logFile, extraArgs = [], timeoutMs = 60000 }) {
  const fd = openSync(logFile, 'a');
  const args = [
    entry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...extraArgs,
    workspace,
  ];
  const child = spawn(node, args, { env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  groups.add(child.pid);
  let exited;
  child.on('exit', (code, signal) => {
    exited = `exit ${code ?? signal}`;
  });
  const server = {
    pid: child.pid,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}`,
    stop: () => stopGroup(child.pid),
  };
  const t0 = Date.now();
  for (;;) {
    if (exited) throw new Error(`code-server ended (${exited}) before it was healthy; its log:\n${tail(logFile)}`);
    if (await healthy(server.url)) break;
    if (Date.now() - t0 > timeoutMs) {
      await server.stop();
      throw new Error(`code-server was not healthy within ${timeoutMs / 1000}s; its log:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.startMs = Date.now() - t0;
  return server;
}

function healthy(url) {
  return new Promise((resolve) => {
    const req = http.get(`${url}/healthz`, { timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Runs code-server's CLI (e.g. --install-extension) to completion; throws with its output on failure. */
export function codeServerCli({ node, entry, env, args, logFile, timeoutMs = 180000 }) {
  const r = spawnSync(node, [entry, ...args], { env, encoding: 'utf8', timeout: timeoutMs, killSignal: 'SIGKILL' });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (logFile) appendFileSync(logFile, `$ code-server ${args.join(' ')}\n${out}\n`);
  if (r.status !== 0) throw new Error(`code-server ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}):\n${out.slice(-3000)}`);
  return out;
}

export function tail(file, lines = 30) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
