/**
 * A relay in front of a participant that can tamper with the frames of its update sockets: plain
 * requests pass (unless held: never answered, as by a frozen server); on each `/v2/updates` socket
 * every frame the participant sends is passed, dropped (the socket stays open and answers pings) or
 * sent twice, as `frame` decides.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export type FrameFate = 'pass' | 'drop' | 'twice';

export interface FrameRelayOptions {
  /** Decides a frame's fate; `socket` counts the update sockets from 0. Default: pass. */
  frame?(text: string, socket: number): FrameFate;
  /** Requests for which this holds get no answer at all. Default: none. */
  hold?(method: string, path: string): boolean;
}

export interface FrameRelay {
  url: string;
  /** How many frames met each fate, and how many update sockets were opened. */
  readonly counts: Record<FrameFate, number> & { sockets: number };
  close(): Promise<void>;
}

export async function startFrameRelay(target: string, o: FrameRelayOptions = {}): Promise<FrameRelay> {
  const counts = { pass: 0, drop: 0, twice: 0, sockets: 0 };
  const server = http.createServer(async (req, res) => {
    if (o.hold?.(req.method ?? 'GET', req.url ?? '/')) return; // never answered: the client's deadline decides
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    try {
      const answer = await fetch(new URL(req.url ?? '/', target), {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? 'application/json', ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.destroy();
    }
  });
  const sockets = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false });
  server.on('upgrade', (req, socket, head) => {
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    sockets.handleUpgrade(req, socket, head, (client) => {
      const index = counts.sockets++;
      const upstream = new WebSocket(new URL(req.url ?? '/', target.replace(/^http/, 'ws')), protocols);
      const pending: string[] = [];
      client.on('message', (m) => (upstream.readyState === WebSocket.OPEN ? upstream.send(m.toString()) : pending.push(m.toString())));
      upstream.on('open', () => pending.splice(0).forEach((m) => upstream.send(m)));
      upstream.on('message', (m) => {
        const text = m.toString();
        const fate = o.frame?.(text, index) ?? 'pass';
        counts[fate]++;
        if (fate === 'drop') return;
        client.send(text);
        if (fate === 'twice') client.send(text);
      });
      upstream.on('close', () => client.close());
      upstream.on('error', () => client.terminate());
      client.on('close', () => upstream.close());
      client.on('error', () => upstream.terminate());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: async () => {
      sockets.clients.forEach((c) => c.terminate());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const isCheckpointFrame = (frame: string) => frame.includes('"OffsetCheckpoint"');
export const isTransactionFrame = (frame: string) => frame.includes('"Transaction"');
