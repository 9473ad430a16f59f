/**
 * What a fresh demo participant starts with: four parties, a handful of users with different
 * rights, and about two hours of history (Ious issued, transferred, split and archived, an Asset
 * renamed by key, party topology changes, offset checkpoints, and with two synchronizers a
 * reassignment), all backdated so the record times look like a real ledger's.
 */
import { parseIdentifierRef } from './packages';
import type { ParsedCommand } from './interpreter';
import type { DemoLedger } from './ledger';
import type { UserRight } from './model';
import type { Micros } from './time';

export interface SeededParties {
  bank: string;
  alice: string;
  bob: string;
  charlie: string;
}

const IOU = '#demo-iou:Iou:Iou';
const ASSET = '#demo-asset:Asset:Asset';
const SEED_SPAN: Micros = 2 * 60 * 60 * 1_000_000;
const STEP: Micros = 150 * 1_000_000;

const actAs = (party: string): UserRight => ({ kind: 'CanActAs', party });
const readAs = (party: string): UserRight => ({ kind: 'CanReadAs', party });

function command(templateId: string, body: Record<string, unknown> & { kind: ParsedCommand['kind'] }): ParsedCommand {
  return { templateId, ref: parseIdentifierRef(templateId)!, ...body } as ParsedCommand;
}

/** The seeded party ids: `<Name>::1220<the participant's namespace>`. */
export function seededParties(ledger: DemoLedger): SeededParties {
  const id = (hint: string) => ledger.ids.namespacedId(hint, ledger.state.namespace);
  return { bank: id('Bank'), alice: id('Alice'), bob: id('Bob'), charlie: id('Charlie') };
}

/** Allocates the parties and users; with `history`, also writes the demo transactions. */
export function seedLedger(ledger: DemoLedger, history: boolean): void {
  let at = ledger.now() - SEED_SPAN;
  const tick = () => (at += STEP);
  ledger.batch(() => {
    const p = {
      bank: ledger.allocateParty('Bank', 'SUBMISSION', tick()),
      alice: ledger.allocateParty('Alice', 'SUBMISSION', tick()),
      bob: ledger.allocateParty('Bob', 'SUBMISSION', tick()),
      charlie: ledger.allocateParty('Charlie', 'SUBMISSION', tick()),
    };
    const all = [p.bank, p.alice, p.bob, p.charlie];
    ledger.putUser({ id: 'demo-admin', rights: [{ kind: 'ParticipantAdmin' }, { kind: 'CanReadAsAnyParty' }, ...all.map(actAs)] });
    ledger.putUser({ id: 'alice', primaryParty: p.alice, rights: [actAs(p.alice)] });
    ledger.putUser({ id: 'bob', primaryParty: p.bob, rights: [actAs(p.bob)] });
    ledger.putUser({ id: 'charlie', primaryParty: p.charlie, rights: [actAs(p.charlie)] });
    ledger.putUser({ id: 'bank', primaryParty: p.bank, rights: [actAs(p.bank)] });
    ledger.putUser({ id: 'auditor', rights: [readAs(p.alice), readAs(p.bob)] });
    ledger.putUser({ id: 'former-employee', isDeactivated: true, rights: [actAs(p.alice)] });
    if (history) writeHistory(ledger, p, tick);
  });
}

function writeHistory(ledger: DemoLedger, p: SeededParties, tick: () => Micros): void {
  let n = 0;
  const run = (party: string, commands: ParsedCommand[], workflowId = '') =>
    ledger.execute({ commandId: `seed-${++n}`, workflowId, actAs: [party], readAs: [], commands }, tick());
  const issue = (owner: string, currency: string, amount: string, observers: string[] = []) =>
    run(p.bank, [command(IOU, { kind: 'create', createArguments: { issuer: p.bank, owner, currency, amount, observers } })]);
  const exercise = (party: string, templateId: string, contractId: string, choice: string, choiceArgument: unknown) =>
    run(party, [command(templateId, { kind: 'exercise', contractId, choice, choiceArgument })]);
  const createdBy = (tx: ReturnType<typeof run>, index = 0) => tx.nodes.filter((node) => node.kind === 'created')[index].contract.contractId;

  const aliceUsd = createdBy(issue(p.alice, 'USD', '1000', []));
  const bobEur = createdBy(issue(p.bob, 'EUR', '500', [p.charlie]));
  issue(p.charlie, 'CHF', '250.5');
  ledger.appendCheckpoint();

  const bobUsd = createdBy(exercise(p.alice, IOU, aliceUsd, 'Iou_Transfer', { newOwner: p.bob }));
  const split = exercise(p.bob, IOU, bobUsd, 'Iou_Split', { splitAmount: '300' });
  exercise(p.bob, IOU, createdBy(split, 0), 'Iou_Transfer', { newOwner: p.charlie });
  ledger.appendCheckpoint();

  run(p.alice, [command(ASSET, { kind: 'create', createArguments: { owner: p.alice, id: 'car-1', description: 'Blue sedan' } })], 'garage');
  run(
    p.alice,
    [command(ASSET, { kind: 'exerciseByKey', contractKey: { _1: p.alice, _2: 'car-1' }, choice: 'Asset_Rename', choiceArgument: { newDescription: 'Red sedan' } })],
    'garage',
  );
  const small = createdBy(issue(p.alice, 'USD', '42'));
  // Archive is the signatories' choice: the issuer archives, not the owner.
  exercise(p.bank, IOU, small, 'Archive', {});
  run(p.bank, [
    command(IOU, {
      kind: 'createAndExercise',
      createArguments: { issuer: p.bank, owner: p.bank, currency: 'GBP', amount: '75', observers: [] },
      choice: 'Iou_Transfer',
      choiceArgument: { newOwner: p.alice },
    }),
  ]);
  ledger.appendCheckpoint();

  // A party that comes and goes: one topology event of each kind.
  const dave = ledger.allocateParty('Dave', 'SUBMISSION', tick());
  ledger.changePartyPermission(dave, 'OBSERVATION', tick());
  ledger.revokeParty(dave, tick());

  if (ledger.synchronizers.length > 1) {
    ledger.reassign(bobEur, ledger.synchronizers[1].id, p.bob, tick());
    exercise(p.bob, IOU, bobEur, 'Iou_Transfer', { newOwner: p.alice });
  }
  const traders = [p.alice, p.bob, p.charlie];
  for (let i = 0; i < 6; i++) {
    const iou = createdBy(issue(traders[i % 3], i % 2 ? 'EUR' : 'USD', String(100 * (i + 1))));
    if (i % 2 === 0) exercise(traders[i % 3], IOU, iou, 'Iou_Transfer', { newOwner: traders[(i + 1) % 3] });
    if (i % 3 === 2) ledger.appendCheckpoint();
  }
}
