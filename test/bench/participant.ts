/**
 * The benchmark's demo participant, in a process of its own so that its work and memory stay out of
 * the measured client's figures. Started by `ParticipantProcess.start` (lib.ts).
 */
import { startDemoParticipant, type DemoParticipant } from '../../src/participant';
import { startDemoNetwork } from '../../src/participant/network/index';
import { parseIdentifierRef } from '../../src/participant/packages';
import type { ParticipantInfo, ParticipantRequest, ParticipantSetup } from './lib';

process.once('message', async (setup: ParticipantSetup) => {
  if (setup.network) return serveNetwork(setup.network);
  const requests = new Map<string, number>();
  const p = await startDemoParticipant({
    seed: 7,
    apiVersion: setup.apiVersion ?? '3.5',
    synchronizers: setup.synchronizers ?? 1,
    listCap: setup.listCap,
    // No auth: Canton's 5-minute token lifetime would need minting inside every client measured, and
    // the official client's bearer header (it always sends one) is then simply not checked.
    auth: 'none',
    // Lines look like "POST /v2/updates/flats -> 200 (3 ms)": count them by method and path.
    logger: (line) => {
      const m = /^([A-Z]+ \S+) -> /.exec(line);
      if (m) requests.set(m[1], (requests.get(m[1]) ?? 0) + 1);
    },
  });
  if (setup.updates) p.state.appendSynthetic(setup.updates, { seed: 7 });
  if (setup.activeContracts) createIous(p, setup.activeContracts);
  const info: ParticipantInfo = { url: p.url, ledgerEnd: p.state.ledgerEnd, parties: { ...p.parties } };
  process.send!(info);

  let appendSeed = 100;
  process.on('message', (m: { id: number } & ParticipantRequest) => {
    try {
      let value: unknown;
      switch (m.op) {
        case 'append':
          p.state.appendSynthetic(m.count, { seed: appendSeed++ });
          value = p.state.ledgerEnd;
          break;
        case 'prune':
          p.state.prune(m.offset);
          value = p.state.prunedUpTo;
          break;
        case 'ledgerEnd':
          value = p.state.ledgerEnd;
          break;
        case 'requests':
          value = Object.fromEntries(requests);
          if (m.reset) requests.clear();
          break;
      }
      process.send!({ id: m.id, ok: true, value });
    } catch (e) {
      process.send!({ id: m.id, ok: false, error: (e as Error).stack ?? String(e) });
    }
  });
  process.on('SIGTERM', () => void p.close().finally(() => process.exit(0)));
});

/** `count` Ious that stay active, 100 per transaction, written on the ledger itself. */
function createIous(p: DemoParticipant, count: number): void {
  const templateId = '#demo-iou:Iou:Iou';
  const ref = parseIdentifierRef(templateId)!;
  const owners = [p.parties.alice, p.parties.bob, p.parties.charlie];
  p.state.batch(() => {
    for (let made = 0, tx = 0; made < count; tx++) {
      const n = Math.min(100, count - made);
      const commands = Array.from({ length: n }, (_, i) => ({
        kind: 'create' as const,
        templateId,
        ref,
        createArguments: { issuer: p.parties.bank, owner: owners[(made + i) % owners.length], currency: 'USD', amount: String(1 + ((made + i) % 1000)), observers: [] },
      }));
      p.state.execute({ commandId: `bench-acs-${tx}`, workflowId: '', actAs: [p.parties.bank], readAs: [], commands });
      made += n;
    }
  });
}

/** A demo network, until SIGTERM: only its URLs and parties are asked of it. */
async function serveNetwork(names: string[]): Promise<void> {
  const net = await startDemoNetwork({ participants: names, seed: false });
  const { hosting: _, ...parties } = net.parties;
  const info: ParticipantInfo = { url: net.participants[0].url, urls: net.participants.map((p) => p.url), ledgerEnd: 0, parties };
  process.send!(info);
  process.on('SIGTERM', () => void net.close().finally(() => process.exit(0)));
}
