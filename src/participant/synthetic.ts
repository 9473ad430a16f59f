/**
 * Bulk synthetic activity: a realistic mix of Iou issues, transfers, splits and archives, Asset
 * creations and renames, offset checkpoints, and (with two synchronizers) reassignments. Every
 * transaction goes through the interpreter, so the data is as consistent as a submitted one.
 */
import { ASSET, IOU } from './catalog';
import { parseIdentifierRef } from './packages';
import { IdSource } from './ids';
import type { ParsedCommand } from './interpreter';
import type { ContractRecord, PartyRecord, SynchronizerInfo, TransactionRecord } from './model';
import { formatNumeric } from './values';

export interface SyntheticOptions {
  /** Seed for the choices made (the ids come from the ledger's own generator). Default 1. */
  seed?: number;
  /** Parties that own and trade Ious. Default: every hosted party. */
  parties?: string[];
  /** The Iou issuer. Default: the first of `parties`. */
  issuer?: string;
  /** An offset checkpoint after every this many updates. Default 10. */
  checkpointEvery?: number;
}

/**
 * The ledger the activity is written to: what it reads and the writes it makes. The demo ledger hands
 * itself in, so this module needs nothing from the ledger's.
 */
export interface SyntheticTarget {
  readonly parties: ReadonlyMap<string, PartyRecord>;
  readonly contracts: ReadonlyMap<string, ContractRecord>;
  readonly ledgerEnd: number;
  readonly synchronizers: readonly SynchronizerInfo[];
  execute(request: { commandId: string; workflowId: string; actAs: readonly string[]; readAs: readonly string[]; commands: ParsedCommand[] }): TransactionRecord;
  reassign(contractId: string, target: string, submitter: string): unknown;
  appendCheckpoint(): unknown;
}

const IOU_REF = '#demo-iou:Iou:Iou';
const ASSET_REF = '#demo-asset:Asset:Asset';
const CURRENCIES = ['USD', 'EUR', 'CHF', 'GBP'];

type CommandBody = ParsedCommand extends infer C ? (C extends ParsedCommand ? Omit<C, 'templateId' | 'ref'> : never) : never;

function command(templateId: string, body: CommandBody): ParsedCommand {
  return { templateId, ref: parseIdentifierRef(templateId)!, ...body } as ParsedCommand;
}

/** A random pick that can also be removed in O(1). */
class Pool {
  private readonly items: ContractRecord[] = [];
  constructor(private readonly random: IdSource) {}
  get size(): number {
    return this.items.length;
  }
  add(c: ContractRecord): void {
    this.items.push(c);
  }
  take(): ContractRecord {
    const i = this.random.int(this.items.length);
    const picked = this.items[i];
    this.items[i] = this.items[this.items.length - 1];
    this.items.pop();
    return picked;
  }
}

export function appendSyntheticUpdates(ledger: SyntheticTarget, count: number, options: SyntheticOptions): void {
  const random = IdSource.fromSeed(options.seed ?? 1);
  const parties = options.parties ?? [...ledger.parties.values()].filter((p) => !p.revoked).map((p) => p.party);
  if (parties.length < 2) throw new Error('appendSynthetic needs at least two parties');
  const issuer = options.issuer ?? parties[0];
  const traders = parties.filter((p) => p !== issuer);
  const checkpointEvery = options.checkpointEvery ?? 10;
  const pick = <T>(list: readonly T[]): T => list[random.int(list.length)];

  const ious = new Pool(random);
  const assets = new Pool(random);
  for (const c of ledger.contracts.values()) {
    if (c.archivedOffset !== undefined || !c.stakeholders.includes(issuer)) continue;
    if (c.template.nameKey === IOU.nameKey) ious.add(c);
  }
  for (const c of ledger.contracts.values()) {
    if (c.archivedOffset === undefined && c.template.nameKey === ASSET.nameKey && parties.includes(String(c.argument.owner))) assets.add(c);
  }

  let written = 0;
  let serial = ledger.ledgerEnd;
  const run = (actAs: string, commands: ParsedCommand[]) => {
    // join() builds a flat string: a concatenation would keep two pieces alive per stored update.
    const tx = ledger.execute({ commandId: ['synthetic', ++serial].join('-'), workflowId: '', actAs: [actAs], readAs: [], commands });
    for (const node of tx.nodes) {
      if (node.kind === 'created' && node.contract.archivedOffset === undefined) {
        (node.contract.template.nameKey === IOU.nameKey ? ious : assets).add(node.contract);
      }
    }
    written++;
  };
  const exercise = (contract: ContractRecord, templateRef: string, choice: string, choiceArgument: unknown, actor = String(contract.argument.owner)) =>
    run(actor, [command(templateRef, { kind: 'exercise', contractId: contract.contractId, choice, choiceArgument })]);

  while (written < count) {
    const roll = random.float();
    if (ledger.synchronizers.length > 1 && roll < 0.04 && ious.size > 0 && count - written >= 2) {
      const contract = ious.take();
      const target = ledger.synchronizers.find((s) => s.id !== contract.synchronizerId)!.id;
      ledger.reassign(contract.contractId, target, String(contract.argument.owner));
      ious.add(contract);
      written += 2;
    } else if (roll < 0.4 || ious.size === 0) {
      const amount = formatNumeric(BigInt(1 + random.int(100_000)) * 10n ** 8n, 10);
      const observers = random.float() < 0.2 ? [pick(traders)] : [];
      run(issuer, [
        command(IOU_REF, {
          kind: 'create',
          createArguments: { issuer, owner: pick(traders), currency: pick(CURRENCIES), amount, observers },
        }),
      ]);
    } else if (roll < 0.65) {
      const contract = ious.take();
      exercise(contract, IOU_REF, 'Iou_Transfer', { newOwner: pick(parties.filter((p) => p !== contract.argument.owner)) });
    } else if (roll < 0.78) {
      const contract = ious.take();
      const amount = String(contract.argument.amount);
      if (amount.startsWith('0.') || amount.startsWith('1.')) {
        ious.add(contract); // too small to split in two: leave it for another round
        continue;
      }
      exercise(contract, IOU_REF, 'Iou_Split', { splitAmount: '1.0' });
    } else if (roll < 0.88) {
      const contract = ious.take();
      // Archive is controlled by the signatories: the issuer.
      exercise(contract, IOU_REF, 'Archive', {}, String(contract.argument.issuer));
    } else if (roll < 0.94 || assets.size === 0) {
      const owner = pick(traders);
      run(owner, [
        command(ASSET_REF, { kind: 'create', createArguments: { owner, id: `asset-${serial + 1}`, description: `Synthetic asset ${serial + 1}` } }),
      ]);
    } else {
      const contract = assets.take();
      exercise(contract, ASSET_REF, 'Asset_Rename', { newDescription: `Renamed at ${serial + 1}` });
    }
    if (checkpointEvery > 0 && written % checkpointEvery === 0) ledger.appendCheckpoint();
  }
}
