/** What a transaction changed in the active contract set: created, consumed and transient contracts, by template. */
import type { ContractNode, ContractState, TransactionGraph } from './model';

export interface TemplateChange {
  templateId: string;
  created: number;
  consumed: number;
  transient: number;
}

export interface TransactionDiff {
  /** New and still active afterwards: the ACS grew by these. */
  created: ContractNode[];
  /** Inputs archived here: the ACS lost these. */
  consumed: ContractNode[];
  /** Created and consumed inside the transaction: never in any ACS. */
  transient: ContractNode[];
  /** Inputs only exercised non-consumingly: unchanged. */
  used: ContractNode[];
  /** Sorted by template id. */
  byTemplate: TemplateChange[];
}

export function transactionDiff(g: TransactionGraph): TransactionDiff {
  const of = (state: ContractState) => [...g.contracts.values()].filter((c) => c.state === state);
  const byTemplate = new Map<string, TemplateChange>();
  for (const c of g.contracts.values()) {
    if (c.state === 'used') continue;
    let t = byTemplate.get(c.templateId);
    if (!t) byTemplate.set(c.templateId, (t = { templateId: c.templateId, created: 0, consumed: 0, transient: 0 }));
    t[c.state]++;
  }
  return {
    created: of('created'),
    consumed: of('consumed'),
    transient: of('transient'),
    used: of('used'),
    byTemplate: [...byTemplate.values()].sort((a, b) => (a.templateId < b.templateId ? -1 : a.templateId > b.templateId ? 1 : 0)),
  };
}
