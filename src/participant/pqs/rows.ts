/**
 * The demo ledger as a Participant Query Store holds it, in the shape PQS's writer gives it
 * (digital-asset/participant-query-store, `DocumentPostgres.scala`): a transaction per ledger
 * transaction, a create writes **one contract row per payload** — the template's and one per interface
 * view it implements (`payload_type` tells which) —, an exercise one exercise row (of the template or of
 * the interface that declares the choice), and a consuming exercise archives every payload row of the
 * contract. The demo mirror (./mirror.ts) writes these rows into the demo schema; the tests write the same
 * rows into PQS's own schema, so both stores hold the same ledger.
 */
import type { DemoLedger } from '../ledger';
import type { ContractRecord, TransactionRecord } from '../model';
import type { PackageDef } from '../packages';
import { formatInstant } from '../time';

export type PqsPayloadType = 'template' | 'interface';

/** A template or interface as PQS registers it (`package-name:Module:Entity`). */
export interface PqsEntity {
  packageName: string;
  moduleName: string;
  entityName: string;
  payloadType: PqsPayloadType;
}

export const fqnOf = (e: Pick<PqsEntity, 'packageName' | 'moduleName' | 'entityName'>): string => `${e.packageName}:${e.moduleName}:${e.entityName}`;

export interface PqsPackage {
  name: string;
  version: string;
  id: string;
}

export interface PqsChoice {
  entity: PqsEntity;
  choice: string;
  consuming: boolean;
}

export interface PqsContractRow {
  entity: PqsEntity;
  contractId: string;
  /** The node id of the create within its transaction. */
  nodeId: number;
  payload: unknown;
  contractKey: unknown;
  signatories: readonly string[];
  observers: readonly string[];
  witnesses: readonly string[];
  package: PqsPackage;
}

export interface PqsExerciseRow {
  choice: PqsChoice;
  /** The contract's own entity (the template, or the interface the choice was exercised through). */
  contractEntity: PqsEntity;
  contractId: string;
  nodeId: number;
  argument: unknown;
  result: unknown;
  controllers: readonly string[];
  witnesses: readonly string[];
  lastDescendantNodeId: number;
  package: PqsPackage;
}

export interface PqsArchiveRow {
  entity: PqsEntity;
  contractId: string;
  nodeId: number;
  package: PqsPackage;
}

export interface PqsTransaction {
  offset: number;
  transactionId: string;
  workflowId: string;
  commandId: string;
  synchronizerId: string;
  effectiveAt: string;
  recordedAt: string;
  creates: PqsContractRow[];
  exercises: PqsExerciseRow[];
  archives: PqsArchiveRow[];
}

/** Everything a store must have registered before it takes the rows (PQS's `__initialize_*` calls). */
export interface PqsTypes {
  packages: Map<string, PqsPackage>;
  entities: Map<string, PqsEntity>;
  /** Template fqn → the interfaces it implements (fqn). */
  implementsOf: Map<string, Set<string>>;
  choices: Map<string, PqsChoice>;
}

export function emptyTypes(): PqsTypes {
  return { packages: new Map(), entities: new Map(), implementsOf: new Map(), choices: new Map() };
}

const packageOf = (p: PackageDef): PqsPackage => ({ name: p.name, version: p.version, id: p.id });

/**
 * The rows of the ledger's transactions after `afterOffset`, and the types they use (added to `types`).
 * `snapshot`: the contracts active at the first offset read whose creating transaction is no longer in
 * the log (pruned), as PQS's ACS snapshot brings them.
 */
export function pqsRowsOf(ledger: DemoLedger, afterOffset: number, types: PqsTypes): { transactions: PqsTransaction[]; snapshot: PqsContractRow[] } {
  const use = (e: PqsEntity, pkg: PqsPackage): PqsEntity => {
    types.packages.set(pkg.id, pkg);
    const key = fqnOf(e);
    const known = types.entities.get(key);
    if (known) return known;
    types.entities.set(key, e);
    return e;
  };
  const templateEntity = (c: ContractRecord) =>
    use({ packageName: c.template.pkg.name, moduleName: c.template.moduleName, entityName: c.template.entityName, payloadType: 'template' }, packageOf(c.template.pkg));

  /** The contract's payload rows: its template's, then one per interface view the simulator can compute. */
  const payloadRows = (c: ContractRecord, nodeId: number, witnesses: readonly string[]): PqsContractRow[] => {
    const template = templateEntity(c);
    const pkg = packageOf(c.template.pkg);
    const common = { contractId: c.contractId, nodeId, signatories: c.signatories, observers: c.observers, witnesses, package: pkg };
    const rows: PqsContractRow[] = [{ ...common, entity: template, payload: c.argument, contractKey: c.key ?? null }];
    for (const instance of c.template.interfaces) {
      const iface = ledger.packages.interface(instance.interfaceId);
      if (!iface || !instance.view) continue;
      const entity = use({ packageName: iface.pkg.name, moduleName: iface.moduleName, entityName: iface.entityName, payloadType: 'interface' }, packageOf(iface.pkg));
      let implemented = types.implementsOf.get(fqnOf(template));
      if (!implemented) types.implementsOf.set(fqnOf(template), (implemented = new Set()));
      implemented.add(fqnOf(entity));
      // An interface view has no key of its own.
      rows.push({ ...common, entity, payload: instance.view(c.argument), contractKey: null });
    }
    return rows;
  };

  const archiveRows = (c: ContractRecord, nodeId: number): PqsArchiveRow[] =>
    payloadRows(c, nodeId, []).map((r) => ({ entity: r.entity, contractId: c.contractId, nodeId, package: r.package }));

  const logged = ledger.entries.filter((e): e is TransactionRecord => e.kind === 'transaction');
  const snapshot: PqsContractRow[] = [];
  if (afterOffset < 0) {
    const created = new Set(logged.flatMap((e) => e.nodes.filter((n) => n.kind === 'created').map((n) => n.contract.contractId)));
    for (const c of ledger.contracts.values()) if (!created.has(c.contractId) && c.archivedOffset === undefined) snapshot.push(...payloadRows(c, c.createdNodeId, c.stakeholders));
  }
  const transactions: PqsTransaction[] = [];
  for (const tx of logged) {
    if (tx.offset <= afterOffset) continue;
    const t: PqsTransaction = {
      offset: tx.offset,
      transactionId: tx.updateId,
      workflowId: tx.workflowId,
      commandId: tx.commandId,
      synchronizerId: tx.synchronizerId,
      effectiveAt: formatInstant(tx.effectiveAt),
      recordedAt: formatInstant(tx.recordTime),
      creates: [],
      exercises: [],
      archives: [],
    };
    for (const node of tx.nodes) {
      if (node.kind === 'created') {
        t.creates.push(...payloadRows(node.contract, node.nodeId, node.witnesses));
        continue;
      }
      const contractEntity = templateEntity(node.contract);
      const iface = node.interfaceId ? ledger.packages.interface(node.interfaceId) : undefined;
      const declaring = iface
        ? use({ packageName: iface.pkg.name, moduleName: iface.moduleName, entityName: iface.entityName, payloadType: 'interface' }, packageOf(iface.pkg))
        : contractEntity;
      const choiceKey = `${fqnOf(declaring)}:${node.choice}`;
      let choice = types.choices.get(choiceKey);
      if (!choice) types.choices.set(choiceKey, (choice = { entity: declaring, choice: node.choice, consuming: node.consuming }));
      t.exercises.push({
        choice,
        contractEntity: declaring,
        contractId: node.contract.contractId,
        nodeId: node.nodeId,
        argument: node.choiceArgument ?? null,
        result: node.exerciseResult ?? null,
        controllers: node.actingParties,
        witnesses: node.witnesses,
        lastDescendantNodeId: node.lastDescendantNodeId,
        package: iface ? packageOf(iface.pkg) : packageOf(node.template.pkg),
      });
      if (node.consuming) t.archives.push(...archiveRows(node.contract, node.nodeId));
    }
    transactions.push(t);
  }
  return { transactions, snapshot };
}
