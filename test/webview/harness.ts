/**
 * What the webview pages' browser tests share: a local server for the pages and the repository's files
 * (`dist/webview/*.js`, `media/*`), a stand-in for VS Code's webview API that records what the page
 * posts and saves, and Debian's Chromium driven by playwright-core.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const ROOT = path.resolve(__dirname, '..', '..');
const CHROMIUM = process.env.E2E_CHROMIUM || '/usr/bin/chromium';

/** Stands in for VS Code's webview host: the state and the messages go to window.__host. */
const HOST_JS = `
window.__host = { posted: [], state: window.__saved, violations: [] };
document.addEventListener('securitypolicyviolation', (e) => window.__host.violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.acquireVsCodeApi = () => ({
  postMessage: (m) => window.__host.posted.push(m),
  getState: () => window.__host.state,
  setState: (s) => { window.__host.state = s; },
});`;

/** A page with the errors it threw. */
export type WatchedPage = Page & { errors: string[] };

export interface PageHarness {
  origin: string;
  browser: Browser;
  /** What the next page loaded finds in its getState(). */
  saved: unknown;
  /** Opens `pathname`, then waits until the page has said it is ready. */
  open(pathname?: string): Promise<WatchedPage>;
  close(): Promise<void>;
}

/**
 * Starts the server and the browser. `pages` answers HTML by path (the page must load `/host.js` with
 * its nonce before its own script); every other path is a file of the repository.
 */
export async function startPageHarness(script: string, pages: Record<string, (origin: string) => string>): Promise<PageHarness> {
  if (!existsSync(CHROMIUM) || !existsSync(script)) {
    // Loud: CI installs Chromium and builds dist/ before the tests.
    throw new Error(`needs ${CHROMIUM} (apt-get install chromium) and ${script} (npm run build)`);
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const page = pages[url.pathname];
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page(harness.origin));
    } else if (url.pathname === '/host.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`window.__saved = ${harness.saved === undefined ? 'undefined' : JSON.stringify(harness.saved)};${HOST_JS}`);
    } else {
      const file = path.join(ROOT, url.pathname);
      if (!file.startsWith(ROOT) || !existsSync(file)) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'text/javascript' });
      res.end(readFileSync(file));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const harness: PageHarness = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browser,
    saved: undefined,
    async open(pathname = '/') {
      const p = (await browser.newPage({ viewport: { width: 1100, height: 700 } })) as WatchedPage;
      p.errors = [];
      p.on('pageerror', (e) => p.errors.push(String(e)));
      await p.goto(harness.origin + pathname);
      await p.waitForFunction(() => (window as any).__host.posted.some((m: any) => m.type === 'ready'));
      return p;
    },
    async close() {
      await browser.close();
      server.close();
    },
  };
  return harness;
}

/** What the stand-in recorded: posted messages, saved state, CSP violations. */
export function hostOf(p: Page): Promise<{ posted: any[]; state: unknown; violations: string[] }> {
  return p.evaluate(() => (window as any).__host);
}
