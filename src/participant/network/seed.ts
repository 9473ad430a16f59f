/**
 * A demo network's short history, submitted as applications would on LocalNet: each command on the
 * participant that hosts its submitter, each transaction delivered to the other hosts of its
 * informees (Bank's Ious reach Alice on two participants; Alice's transfer reaches Bob's host and
 * the issuer's).
 */
import type { ParsedCommand } from '../interpreter';
import type { Permission } from '../model';
import { parseIdentifierRef } from '../packages';
import type { SeededParties } from '../seed';
import type { Micros } from '../time';
import type { NetworkLedger } from './ledger';

export interface NetworkParties extends SeededParties {
  /** Party id → its hosts (participant names) with their permission, as seeded. */
  hosting: Record<string, Array<{ participant: string; permission: Permission }>>;
}

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';
const STEP: Micros = 90 * 1_000_000;

function command(templateId: string, body: Record<string, unknown> & { kind: ParsedCommand['kind'] }): ParsedCommand {
  return { templateId, ref: parseIdentifierRef(templateId)!, ...body } as ParsedCommand;
}

export function seedNetworkHistory(ledgers: readonly NetworkLedger[], p: NetworkParties): void {
  const hostOf = (party: string) => ledgers.find((l) => l.parties.get(party)?.permission === 'SUBMISSION')!;
  let at = ledgers[0].now() - 30 * STEP;
  let n = 0;
  const run = (party: string, commands: ParsedCommand[]) => hostOf(party).execute({ commandId: `seed-${++n}`, workflowId: '', actAs: [party], readAs: [], commands }, (at += STEP));
  const issue = (owner: string, currency: string, amount: string) =>
    run(p.bank, [command(IOU, { kind: 'create', createArguments: { issuer: p.bank, owner, currency, amount, observers: [] } })]).nodes[0].contract.contractId;

  const aliceUsd = issue(p.alice, 'USD', '1000');
  issue(p.charlie, 'CHF', '250.5');
  issue(p.bob, 'EUR', '500');
  run(p.alice, [command(IOU, { kind: 'exercise', contractId: aliceUsd, choice: 'Iou_Transfer', choiceArgument: { newOwner: p.bob } })]);
  run(p.alice, [command(ASSET, { kind: 'create', createArguments: { owner: p.alice, id: 'car-1', description: 'Blue sedan' } })]);
  for (const ledger of ledgers) ledger.appendCheckpoint();
}
