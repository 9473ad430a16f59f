// The editor and the CLI send the same request bodies for the same file: every *.commands.json and
// *.vetting.json under examples/ and test/fixtures/ (and a DAR) is sent by the real controllers and by
// the built CLI, each to a demo participant of its own (same seed, same state) behind a recording
// proxy; the write requests (submit, prepare, vetting, DAR) must match byte for byte, in order.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CantonLedgerApi } from '../../../src/extension';
import type { DemoParticipant, DemoParticipantOptions } from '../../../src/participant';
import type { Prompts } from '../../../src/vscode/kit/prompts';
import { unanswered } from '../../vscode/scriptedPrompts';
import { activate, extension, waitFor } from './helpers';
import { closeEditors } from './sendHelpers';

const HOLDING_DAR = 'splice-api-token-holding-v1-1.0.0.dar';
/** The requests a file sends (reads made around them, such as the views' vetting list, differ by front-end and are not compared). */
// Command completions are read (by the Failed Commands view), not sent.
const WRITE_PATH = /^\/v2\/(commands\/(?!(command-)?completions)|interactive-submission\/prepare|package-vetting(\/update)?(\?|$)|dars|packages(\?|$))/;

interface Recorded {
  method: string;
  url: string;
  /** The body as sent, bytes in hex (a DAR is binary). */
  body: string;
}

/** A loopback proxy to `target` that records every request (WebSocket upgrades are passed through, unrecorded). */
class RecordingProxy {
  readonly requests: Recorded[] = [];
  private readonly server: http.Server;
  constructor(private readonly target: URL) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', body: body.toString('hex') });
        const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.destroy());
        out.end(body);
      });
    });
    this.server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      const up = net.connect(Number(target.port), target.hostname, () => {
        const headers = [];
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        up.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
        up.write(head);
        socket.pipe(up).pipe(socket);
      });
      up.on('error', () => socket.destroy());
      socket.on('error', () => up.destroy());
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  writes(): Recorded[] {
    return this.requests.filter((r) => r.method !== 'GET' && WRITE_PATH.test(r.url));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

type ParticipantModule = { startDemoParticipant(o: DemoParticipantOptions): Promise<DemoParticipant> };

function startParticipant(): Promise<DemoParticipant> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(extension().extensionPath, 'dist', 'participant.js')) as ParticipantModule;
  return mod.startDemoParticipant({ port: 0, seed: 43, apiVersion: '3.5' });
}

/** Every commands and vetting file of the examples and fixtures, valid or not, in a fixed order. */
function sentFiles(): { commands: string[]; vetting: string[] } {
  const root = extension().extensionPath;
  const all: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else all.push(full);
    }
  };
  walk(path.join(root, 'examples'));
  walk(path.join(root, 'test/fixtures'));
  all.sort();
  return { commands: all.filter((f) => f.endsWith('.commands.json')), vetting: all.filter((f) => f.endsWith('.vetting.json')) };
}

/** The confirmation button of an apply (VettingActions.confirmApply; the suite is a separate bundle). */
const CONFIRM_APPLY = 'Apply';

/** Answers like a user who sends each file: confirms an apply, dismisses everything else. */
const sendingUser: Prompts = {
  ...unanswered,
  progress: (_title, task) => task(new AbortController().signal),
  message: async (_severity, _text, actions, options) => (options?.modal && actions.includes(CONFIRM_APPLY) ? CONFIRM_APPLY : undefined),
  pick: async () => undefined,
};

function runCli(url: string, args: string[]): Promise<void> {
  const cli = process.env.E2E_CLI;
  if (!cli) return Promise.reject(new Error('E2E_CLI is not set: run the suites through test/e2e/run.mjs or electron.mjs'));
  return new Promise((resolve, reject) => {
    // The extension host's executable is node (code-server) or Electron run as node (desktop).
    execFile(process.execPath, [cli, ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', CANTON_LEDGER_URL: url, CANTON_LEDGER_TOKEN: '' } }, (error) => {
      // Exit 1 (a file with errors, a refusal) is an answer here; a usage error or a crash is not.
      if (error && error.code !== 1) reject(new Error(`canton-ledger ${args.join(' ')} exited ${String(error.code)}`));
      else resolve();
    });
  });
}

describe('submit: the CLI and the editor send the same request bodies for the same file', function () {
  this.timeout(240_000);
  let api: CantonLedgerApi;
  const participants: DemoParticipant[] = [];
  const proxies: RecordingProxy[] = [];
  let profileId: string | undefined;
  let previousActive: string | undefined;
  let previousPrompts: Prompts;

  async function behindProxy(): Promise<{ proxy: RecordingProxy; url: string }> {
    const p = await startParticipant();
    participants.push(p);
    const proxy = new RecordingProxy(new URL(p.url));
    proxies.push(proxy);
    return { proxy, url: await proxy.start() };
  }

  before(async () => {
    api = await activate<CantonLedgerApi>();
    previousActive = api.connections.profiles.activeId();
    previousPrompts = api.send.prompts;
  });

  after(async () => {
    api.send.prompts = previousPrompts;
    await closeEditors();
    if (profileId) {
      api.connections.disconnect(api.connections.connection(profileId)!);
      await api.connections.profiles.remove(profileId);
    }
    await api.connections.profiles.setActive(previousActive);
    for (const proxy of proxies) await proxy.stop();
    for (const p of participants) await p.close();
  });

  it('every example and fixture: submit, preview, vetting dry run and apply, and a DAR upload', async () => {
    const { commands, vetting } = sentFiles();
    const dar = path.resolve(extension().extensionPath, '../shared/daml/dars', HOLDING_DAR);
    const withDar = fs.existsSync(dar);
    if (!withDar) console.warn(`!!! the DAR upload is left out of the comparison: ${dar} is missing`);

    // The editor: the real controllers, against a connection to the first proxy.
    const editor = await behindProxy();
    const profile = await vscode.commands.executeCommand<{ id: string }>('cantonLedger.connections.add', { name: 'E2E same bodies', url: editor.url, auth: 'none', userId: 'demo-admin' });
    profileId = profile.id;
    await vscode.commands.executeCommand('cantonLedger.connections.setActive', profileId);
    await waitFor(() => api.connections.connection(profile.id)!.state.state === 'connected', { what: 'the connection connected' });
    api.send.prompts = sendingUser;
    for (const file of commands) await api.send.submit.submitFile(vscode.Uri.file(file));
    for (const file of commands) await api.send.preview.previewFile(vscode.Uri.file(file));
    for (const file of vetting) {
      await api.send.vetting.dryRun(vscode.Uri.file(file));
      await api.send.vetting.apply(vscode.Uri.file(file));
    }
    if (withDar) {
      await api.send.darUpload.upload(vscode.Uri.file(dar), { mode: 'validate' });
      await api.send.darUpload.upload(vscode.Uri.file(dar), { mode: 'upload', vet: true });
    }

    // The CLI: the built canton-ledger, the same steps against the second proxy.
    const cli = await behindProxy();
    for (const file of commands) await runCli(cli.url, ['submit', file]);
    for (const file of commands) await runCli(cli.url, ['submit', file, '--preview']);
    for (const file of vetting) {
      await runCli(cli.url, ['vet', file, '--dry-run']);
      await runCli(cli.url, ['vet', file]);
    }
    if (withDar) {
      await runCli(cli.url, ['upload-dar', dar, '--validate-only']);
      await runCli(cli.url, ['upload-dar', dar]);
    }

    const sent = { editor: editor.proxy.writes(), cli: cli.proxy.writes() };
    const count = (r: Recorded[], prefix: string) => r.filter((x) => x.url.startsWith(prefix)).length;
    // Not an empty comparison: each valid file was sent (the invalid ones by neither).
    assert.ok(count(sent.editor, '/v2/commands/submit-and-wait-for-transaction') >= 8, 'the valid commands files were submitted');
    assert.ok(count(sent.editor, '/v2/interactive-submission/prepare') >= 8, 'and previewed');
    assert.ok(count(sent.editor, '/v2/package-vetting') >= 8, 'the valid vetting files were dry-run and applied');
    const text = (r: Recorded) => `${r.method} ${r.url}${r.body.length > 4000 ? ` <${r.body.length / 2} bytes>` : ` ${Buffer.from(r.body, 'hex').toString('utf8')}`}`;
    assert.deepEqual(sent.cli.map(text), sent.editor.map(text), 'the same requests, in the same order');
    assert.deepEqual(sent.cli, sent.editor, 'byte for byte');
  });
});
