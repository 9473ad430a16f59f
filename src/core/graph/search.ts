/**
 * What the graph's search ("/") looks through for a box of a transaction: its text, ids and template,
 * and every party it names in any role (actors, controllers, signatories, observers, witnesses) or the
 * party lens shows for it, so that a party the lens calls a stakeholder is found by name.
 */
import type { TransactionDocument } from './document';

/** Search text of each box of `doc`, by box id, lower-cased: built once per drawing. */
export function transactionSearchText(doc: TransactionDocument): Map<string, string> {
  const seenBy = new Map<string, string[]>();
  const note = (id: string, party: string) => seenBy.set(id, [...(seenBy.get(id) ?? []), party]);
  const contractBox = new Map(doc.contracts.map((c) => [c.contractId, c.id]));
  for (const [party, lens] of Object.entries(doc.lenses)) {
    for (const nodeId of Object.keys(lens.actions)) note(`n${nodeId}`, party);
    for (const contractId of lens.contracts) {
      const id = contractBox.get(contractId);
      if (id) note(id, party);
    }
  }
  const text = new Map<string, string>();
  for (const a of doc.actions) {
    const parties = [...a.actingParties, ...(a.signatories ?? []), ...(a.observers ?? []), ...a.witnessParties, ...(seenBy.get(a.id) ?? [])];
    text.set(a.id, [...a.label, a.contractId, a.templateId, a.choice ?? '', ...parties].join(' ').toLowerCase());
  }
  const actionsOf = new Map(doc.actions.map((a) => [a.nodeId, a]));
  for (const c of doc.contracts) {
    // Those who acted on it or saw it created or ended here: its actions' parties.
    const onIt = [c.createdBy, c.consumedBy, ...c.usedBy].map((n) => (n === undefined ? undefined : actionsOf.get(n)));
    const parties = [...(c.signatories ?? []), ...(c.observers ?? []), ...onIt.flatMap((a) => (a ? [...a.actingParties, ...a.witnessParties] : [])), ...(seenBy.get(c.id) ?? [])];
    text.set(c.id, [...c.label, c.contractId, c.templateId, ...parties].join(' ').toLowerCase());
  }
  return text;
}
