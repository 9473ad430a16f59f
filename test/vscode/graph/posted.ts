// What a graph panel was sent, waited for: the glue reads and builds its documents asynchronously.
import type { ToWebview } from '../../../src/core/graph/viewProtocol';
import type { FakeWebviewPanel } from '../fake/vscode';

/** The first message of one of `types` the panel was sent (after the first `after` messages). */
export async function firstPosted(panel: FakeWebviewPanel, types: ToWebview['type'][], after = 0): Promise<ToWebview> {
  for (;;) {
    const m = (panel.posted.slice(after) as ToWebview[]).find((x) => types.includes(x.type));
    if (m) return m;
    await new Promise((r) => setImmediate(r));
  }
}
