/**
 * The agent tools' own cost, on the demo ledger: a page of updates asked through the tool layer (input
 * checked against its schema, the core read, text and data made, redacted and bounded) next to the
 * same page printed by the CLI's `updates --limit` command in process (its own parse, context, client
 * and printing); and the ledger status, as an MCP server's first call makes it (a fresh CLI context's
 * connection: the connect, the ledger end, through the tool layer) next to the same reads by a fresh
 * CLI context with the facts printed (what every command does first: the CLI has no status command).
 */
import { Writable } from 'node:stream';
import { invokeAgentTool } from '../../../src/core/agent/invoke';
import { LedgerClient } from '../../../src/core/api/client';
import { readDar } from '../../../src/core/daml/lf/archive';
import { LedgerConnection } from '../../../src/core/ledger/connection';
import { readPreparedAnswer } from '../../../src/core/preview/decode';
import { parseCommandArgs } from '../../../src/cli/args';
import { updatesCommand } from '../../../src/cli/commands/updates';
import { CliContext } from '../../../src/cli/context';
import { startDemoParticipant } from '../../../src/participant/index';
import { median, workerMain } from '../lib';

export interface AgentInput {
  reps: number;
  pageSize: number;
}

export interface AgentOutput {
  toolMs: number;
  cliMs: number;
  updates: number;
  statusToolMs: number;
  statusCliMs: number;
}

class Discard extends Writable {
  override _write(_c: unknown, _e: BufferEncoding, done: () => void): void {
    done();
  }
}

workerMain<AgentInput, AgentOutput>(async (input) => {
  const p = await startDemoParticipant({ port: 0, seed: 42 });
  const connection = new LedgerConnection({ profile: { id: 'bench', name: 'bench', url: p.url, auth: 'none', source: 'user' }, client: new LedgerClient({ baseUrl: p.url }) });
  try {
    const ctx = { connection, baseDir: process.cwd(), decoders: { readPreparedAnswer: () => readPreparedAnswer, readDar: () => readDar } };
    await connection.connect();
    const tool = async () => {
      const r = await invokeAgentTool('canton_list_updates', { limit: input.pageSize }, ctx, { writes: 'refused' });
      if (r.isError) throw new Error(r.text);
      return (r.data as { count: number }).count;
    };
    const cli = async () => {
      // The command itself (not main.ts, whose executable wiring would run in this bundle): its context, parse, read and printing.
      const argv = ['--limit', String(input.pageSize)];
      const c = new CliContext({ stdout: new Discard(), stderr: new Discard() }, {}, { url: p.url, json: false, verbose: false }, argv);
      const status = await updatesCommand.run(c, parseCommandArgs(argv, updatesCommand.options, 'updates'));
      if (status !== 0) throw new Error(`updates exited ${status}`);
    };
    const cliContext = () => new CliContext({ stdout: new Discard(), stderr: new Discard() }, {}, { url: p.url, json: false, verbose: false }, []);
    const statusTool = async () => {
      const c = cliContext();
      try {
        const r = await invokeAgentTool('canton_ledger_status', {}, { ...ctx, connection: c.connection() }, { writes: 'refused' });
        if (r.isError) throw new Error(r.text);
      } finally {
        c.connection().dispose();
      }
    };
    const statusCli = async () => {
      const c = cliContext();
      try {
        const connection = c.connection();
        const info = await connection.connect();
        const end = await connection.ledger!.refreshLedgerEnd();
        await c.out(`Connected to ${p.url}: Canton ${info.version}, participant ${info.participantId}.`);
        await c.out(`Ledger end: offset ${end}.`);
        await c.out(`User: ${info.user?.id ?? 'none'}; parties: ${info.parties.map((x) => x.party).join(', ')}.`);
      } finally {
        c.connection().dispose();
      }
    };
    const toolMs: number[] = [];
    const cliMs: number[] = [];
    const statusToolMs: number[] = [];
    const statusCliMs: number[] = [];
    let updates = 0;
    const timed = async (into: number[], run: () => Promise<unknown>) => {
      const t0 = performance.now();
      await run();
      into.push(performance.now() - t0);
    };
    for (let i = 0; i < input.reps; i++) {
      await timed(toolMs, async () => (updates = await tool()));
      await timed(cliMs, cli);
      await timed(statusToolMs, statusTool);
      await timed(statusCliMs, statusCli);
    }
    const warm = (xs: number[]) => median(xs.slice(Math.min(5, xs.length - 1)));
    return { toolMs: warm(toolMs), cliMs: warm(cliMs), updates, statusToolMs: warm(statusToolMs), statusCliMs: warm(statusCliMs) };
  } finally {
    connection.dispose();
    await p.close();
  }
});
