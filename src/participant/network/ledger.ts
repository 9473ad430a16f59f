/**
 * A participant of a demo network: its own ledger, which before it commits a transaction checks
 * that every participant hosting an informee has vetted the packages the transaction uses (choosing
 * another version of a package name when one fits everywhere, as Canton's topology-aware package
 * selection does), and after it commits hands the transaction to the network for delivery.
 */
import { LedgerApiError } from '../errors';
import type { LedgerView } from '../interpreter';
import { DemoLedger, type DemoLedgerData, type ExecuteRequest, type LedgerOptions, type PreviewedTransaction } from '../ledger';
import type { ContractRecord, TransactionNode, TransactionRecord } from '../model';
import { preferenceOn } from '../packagePreference';
import type { PackageDef } from '../packages';
import type { Micros } from '../time';
import { vettedAt, type Topology } from '../topology';
import { getOrCreate } from '../../core/maps';

type DraftRequest = Pick<ExecuteRequest, 'actAs' | 'readAs' | 'commands' | 'synchronizerId'>;

export class NetworkLedger extends DemoLedger {
  /** Package ids the interpreter may not choose during the current submission (versions some host lacks). */
  private excluded: ReadonlySet<string> = new Set();
  /** A transaction another participant committed is being received: it keeps the record time it was given. */
  private receiving = false;

  constructor(
    data: DemoLedgerData,
    options: LedgerOptions,
    private readonly topology: Topology,
  ) {
    super(data, options);
  }

  protected override get interpreterView(): LedgerView {
    const view = super.interpreterView;
    const excluded = this.excluded;
    if (excluded.size === 0) return view;
    return { ...view, vettedOn: (synchronizerId) => new Set([...view.vettedOn(synchronizerId)].filter((id) => !excluded.has(id))) };
  }

  override execute(request: ExecuteRequest, at?: Micros): TransactionRecord {
    return this.withSelectedPackages(request, () => {
      const tx = super.execute(request, at);
      deliver(this.topology, this, tx);
      return tx;
    });
  }

  /**
   * One synchronizer, one clock: a record time is the sequencer's, the same on every participant that
   * receives the transaction. So a new one is later than any participant's last (a receiver whose own
   * updates ran ahead would otherwise move the delivered transaction's time), and a received one is
   * kept as it came.
   */
  override nextRecordTime(at?: Micros): Micros {
    if (this.receiving) return super.nextRecordTime(at);
    const network = Math.max(...this.topology.participants.map((p) => p.state.lastRecordTime));
    return super.nextRecordTime(Math.max(at ?? this.now(), network + 1));
  }

  override receiveTransaction(...args: Parameters<DemoLedger['receiveTransaction']>): TransactionRecord {
    this.receiving = true;
    try {
      return super.receiveTransaction(...args);
    } finally {
      this.receiving = false;
    }
  }

  override preview(request: DraftRequest): PreviewedTransaction {
    return this.withSelectedPackages(request, () => super.preview(request));
  }

  private withSelectedPackages<T>(request: DraftRequest, work: () => T): T {
    try {
      this.excluded = selectPackages(this.topology, this, (excluded) => {
        this.excluded = excluded;
        return super.preview(request).prepared;
      });
      return work();
    } finally {
      this.excluded = new Set();
    }
  }
}

/**
 * The package ids to keep the interpreter from, so that every host of every informee has vetted
 * what the transaction uses; throws PACKAGE_SELECTION_FAILED as Canton does when no version of a
 * package name fits them all. Canton's TAPS (`TapsCommandExecutionFactory.scala`, ledger-api-core)
 * interprets once with the submitters' view, and when routing fails, again with the package
 * preference of the draft transaction's informees: so does this, with `draft`.
 */
function selectPackages(topology: Topology, ledger: DemoLedger, draft: (excluded: ReadonlySet<string>) => PreviewedTransaction['prepared']): ReadonlySet<string> {
  let excluded: ReadonlySet<string> = new Set();
  const at = ledger.now();
  for (let pass = 1; ; pass++) {
    const prepared = draft(excluded);
    const needs = packagesNeeded(prepared.nodes);
    const lacking = [...needs].filter(([pkg, parties]) => [...parties].some((party) => topology.hostsOf(party).some((h) => !vettedAt(h.ledger, prepared.synchronizerId, at).has(pkg.id))));
    if (lacking.length === 0) return excluded;
    // Per package name, the parties that need it: Canton's preference for them decides the version.
    const requirements = new Map<string, Set<string>>();
    for (const [pkg, parties] of lacking) for (const party of parties) getOrCreate(requirements, pkg.name, () => new Set()).add(party);
    const answer = preferenceOn(topology, ledger, requirements, prepared.synchronizerId, at);
    if (!answer.ok) throw packageSelectionFailed(prepared.synchronizerId, answer.packageName, answer.reason);
    if (pass > 1) {
      // The preferred versions were used and a host still lacks one: name it as Canton's routing would.
      const [pkg, parties] = lacking[0];
      const party = [...parties].sort()[0];
      throw packageSelectionFailed(prepared.synchronizerId, pkg.name, `No package with package-name '${pkg.name}' is consistently vetted by all hosting participants of party ${party}.`);
    }
    const chosen = new Set(answer.packages.map((p) => p.packageId));
    excluded = new Set(ledger.packages.all().filter((p) => requirements.has(p.name) && !chosen.has(p.id)).map((p) => p.id));
  }
}

/** Each package a transaction's nodes use, with the parties that see those nodes (their witnesses). */
function packagesNeeded(nodes: readonly TransactionNode[]): Map<PackageDef, Set<string>> {
  const needs = new Map<PackageDef, Set<string>>();
  for (const node of nodes) {
    const pkg = node.kind === 'created' ? node.contract.template.pkg : node.template.pkg;
    const parties = getOrCreate(needs, pkg, () => new Set());
    for (const party of node.witnesses) parties.add(party);
  }
  return needs;
}

/**
 * PACKAGE_SELECTION_FAILED (CommandExecutionErrors.scala, ledger-common; FAILED_PRECONDITION), with
 * the cause TapsCommandExecutionFactory builds when every synchronizer was discarded: raised at
 * submission (and prepare), before anything is sequenced, when a participant hosting an informee has
 * not vetted any version of a package the command uses (PackageVettingIntegrationTest, "cannot submit
 * a command referring to a package that has not been vetted by an informee participant").
 */
function packageSelectionFailed(synchronizerId: string, packageName: string, reason: string): LedgerApiError {
  return new LedgerApiError(
    'PACKAGE_SELECTION_FAILED',
    `No synchronizers satisfy the topology requirements for the submitted command: Discarded synchronizers: \n\t${synchronizerId}: Failed to select package-id for package-name '${packageName}' appearing in a command root node due to: ${reason}`,
  );
}

/**
 * Delivers a committed transaction to every other participant hosting one of its informees: each
 * gets its projection (the nodes some party it hosts witnesses), on its own records of the
 * contracts, at its own offset. The command id stays with the submitting participant.
 */
export function deliver(topology: Topology, from: DemoLedger, tx: TransactionRecord): void {
  for (const member of topology.participants) {
    if (member === from) continue;
    const hosted = (party: string) => member.parties.get(party)?.revoked === false;
    const visible = tx.nodes.filter((node) => node.witnesses.some(hosted));
    if (visible.length === 0) continue;
    const own = new Map<string, ContractRecord>();
    const created: ContractRecord[] = [];
    const recordOf = (c: ContractRecord): ContractRecord => {
      const known = own.get(c.contractId) ?? member.contracts.get(c.contractId);
      if (known) return known;
      const copy: ContractRecord = { ...c, archivedOffset: undefined, archivedNodeId: undefined };
      own.set(c.contractId, copy);
      return copy;
    };
    const nodes = visible.map((node): TransactionNode => {
      if (node.kind !== 'created') return { ...node, contract: recordOf(node.contract) };
      const copy = recordOf(node.contract);
      created.push(copy);
      return { ...node, contract: copy };
    });
    member.receiveTransaction(
      { updateId: tx.updateId, commandId: '', workflowId: tx.workflowId, actAs: member.partyList([]), effectiveAt: tx.effectiveAt, synchronizerId: tx.synchronizerId, traceparent: tx.traceparent, nodes },
      created,
      tx.recordTime,
    );
  }
}
