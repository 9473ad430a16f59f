/**
 * DemoLedger: the participant's state machine, with no HTTP in sight. It keeps the update log
 * (transactions, reassignments, topology transactions and offset checkpoints, in offset order),
 * the contracts, parties, users, command deduplication and package vetting, and tells listeners
 * when the log grows (open-ended update requests wait on that).
 */
import { EventEmitter } from 'node:events';
import { CATALOG, INITIALLY_VETTED } from './catalog';
import { rejectionStatus, type CompletionRecord } from './completions';
import { LedgerApiError, invalidArgument } from './errors';
import { IdSource } from './ids';
import { interpret, keyId, type LedgerView, type ParsedCommand, type PreparedTransaction } from './interpreter';
import {
  entryKey,
  type CheckpointRecord,
  type ContractRecord,
  type LogEntry,
  type PartyRecord,
  type PendingUnassignment,
  type Permission,
  type ReassignmentRecord,
  type SynchronizerInfo,
  type TopologyEventRecord,
  type TopologyRecord,
  type TransactionRecord,
  type UserRecord,
  type UserRight,
} from './model';
import { microsOf, type Micros } from './time';
import { applyVettingUpdate, type VettingState, type VettingUpdate } from './vetting';
import { PackageStore, type PackageDef } from './packages';
import { appendSyntheticUpdates, type SyntheticOptions } from './synthetic';

/** Everything the ledger knows; plain data, so that `persistence.ts` can save and restore it. */
export interface DemoLedgerData {
  idState: [number, number, number, number];
  /** The participant's namespace fingerprint (64 hex); parties share it. */
  namespace: string;
  participantName: string;
  synchronizers: SynchronizerInfo[];
  entries: LogEntry[];
  /** Every contract still on record: active ones, and archived ones not pruned yet. */
  contracts: Map<string, ContractRecord>;
  parties: Map<string, PartyRecord>;
  users: Map<string, UserRecord>;
  dedup: Map<string, DedupRecord>;
  /** The command completions, in offset order: committed submissions and those rejected at deduplication. */
  completions: CompletionRecord[];
  vetting: Map<string, VettingState>;
  /** The catalog and the packages loaded from DARs or uploaded. */
  packages: PackageStore;
  ledgerEnd: number;
  prunedUpTo: number;
  /** Latest record time per synchronizer (for checkpoints) and overall (to keep record times increasing). */
  recordTimes: Map<string, Micros>;
  lastRecordTime: Micros;
}

export interface DedupRecord {
  submissionId: string;
  updateId: string;
  offset: number;
  recordTime: Micros;
}

export type DeduplicationPeriod = { kind: 'duration'; micros: Micros } | { kind: 'offset'; offset: number };

/** A command submission, as the ledger executes it. */
export interface ExecuteRequest {
  commandId: string;
  workflowId: string;
  actAs: readonly string[];
  readAs: readonly string[];
  commands: ParsedCommand[];
  synchronizerId?: string;
  traceparent?: string;
}

/** A transaction as committed, before it has an offset and a record time of this participant's. */
export type TransactionDraft = Omit<TransactionRecord, 'kind' | 'offset' | 'recordTime'>;

/** A submission through the command service: deduplicated by (user, actAs, commandId). */
export interface SubmitRequest extends ExecuteRequest {
  userId: string;
  submissionId: string;
  deduplication?: DeduplicationPeriod;
}

/** What a submission would do, computed without committing it. */
export interface PreviewedTransaction {
  prepared: PreparedTransaction;
  effectiveAt: Micros;
  /** Contracts of the ledger the transaction reads (exercises or fetches). */
  inputs: ContractRecord[];
  /** The seed of each create and exercise node (32 bytes, hex), as Canton sends them with a prepared transaction. */
  nodeSeeds: { nodeId: number; seed: string }[];
}

export interface LedgerOptions {
  clock: () => Date;
  /** Longest deduplication period, and the default one. */
  maxDeduplicationMicros?: Micros;
}

/** The ledger's events: `appended` when the log grew, `completed` when a completion was written, `changed` after any change worth saving. */
export type LedgerEvent = 'appended' | 'changed' | 'completed';

const TEN_MINUTES: Micros = 10 * 60 * 1_000_000;

export function newDemoLedgerData(seed: number | undefined, synchronizerCount: 1 | 2, participantName = 'demo-participant'): DemoLedgerData {
  const ids = seed === undefined ? IdSource.random() : IdSource.fromSeed(seed);
  const namespace = ids.hex(64);
  const synchronizers = [{ alias: 'demo-sync', id: ids.namespacedId('demo-sync', ids.hex(64)) }];
  if (synchronizerCount === 2) synchronizers.push({ alias: 'demo-sync-2', id: ids.namespacedId('demo-sync-2', ids.hex(64)) });
  const vetting = new Map(
    synchronizers.map((s) => [s.id, { serial: 1, packages: new Map(INITIALLY_VETTED.map((p) => [p.id, { validFrom: null, validUntil: null }])) }]),
  );
  return {
    idState: ids.state,
    namespace,
    participantName,
    synchronizers,
    entries: [],
    contracts: new Map(),
    parties: new Map(),
    users: new Map(),
    dedup: new Map(),
    completions: [],
    vetting,
    packages: new PackageStore(CATALOG),
    ledgerEnd: 0,
    prunedUpTo: 0,
    recordTimes: new Map(),
    lastRecordTime: 0,
  };
}

export class DemoLedger {
  readonly ids: IdSource;
  readonly participantId: string;
  private readonly events = new EventEmitter();
  private readonly activeKeys = new Map<string, string>();
  private readonly partyLists = new Map<string, readonly string[]>();
  /** Contract ids in creation order: the active contract set is read in pages from a position in it. */
  private readonly contractOrder: string[];
  private readonly maxDeduplicationMicros: Micros;
  /** Names what previews create and seeds their nodes: fresh ids on every prepare, never those of a later submission. */
  private readonly previewIds: IdSource;
  private batchDepth = 0;

  constructor(
    private readonly s: DemoLedgerData,
    private readonly options: LedgerOptions,
  ) {
    this.ids = new IdSource(s.idState);
    this.previewIds = this.ids.fork();
    this.participantId = `${s.participantName}::1220${s.namespace}`;
    this.maxDeduplicationMicros = options.maxDeduplicationMicros ?? TEN_MINUTES;
    this.events.setMaxListeners(0);
    this.contractOrder = [...s.contracts.keys()];
    for (const c of s.contracts.values()) {
      if (c.archivedOffset === undefined && c.key !== null) this.activeKeys.set(keyId(c.template, c.key), c.contractId);
    }
  }

  /** The whole state (to save it): the id generator's position is brought up to date first. */
  get state(): DemoLedgerData {
    this.s.idState = this.ids.state;
    return this.s;
  }

  // ---------------------------------------------------------------- reading

  get ledgerEnd(): number {
    return this.s.ledgerEnd;
  }
  get prunedUpTo(): number {
    return this.s.prunedUpTo;
  }
  get participantName(): string {
    return this.s.participantName;
  }
  get synchronizers(): readonly SynchronizerInfo[] {
    return this.s.synchronizers;
  }
  get parties(): ReadonlyMap<string, PartyRecord> {
    return this.s.parties;
  }
  get users(): ReadonlyMap<string, UserRecord> {
    return this.s.users;
  }
  get contracts(): ReadonlyMap<string, ContractRecord> {
    return this.s.contracts;
  }
  /** The log from oldest to newest (pruned entries are gone). */
  get entries(): readonly LogEntry[] {
    return this.s.entries;
  }

  /** Index of the first entry whose order key is greater than `key` (see `entryKey`). */
  indexAfterKey(key: number): number {
    const entries = this.s.entries;
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entryKey(entries[mid]) <= key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  activeContract(contractId: string): ContractRecord | undefined {
    const c = this.s.contracts.get(contractId);
    return c && c.archivedOffset === undefined ? c : undefined;
  }

  /**
   * Contracts active at `offset` that `accept` takes, in creation order, from position `from`: at
   * most `max`, and where the next page starts. The cost is that of the page (plus the contracts
   * skipped on the way), not of the whole set.
   */
  activeContractsAt(offset: number, from: number, max: number, accept: (c: ContractRecord) => boolean): { contracts: ContractRecord[]; positions: number[]; next?: number } {
    const contracts: ContractRecord[] = [];
    const positions: number[] = [];
    let i = from;
    for (; i < this.contractOrder.length && contracts.length < max; i++) {
      const c = this.s.contracts.get(this.contractOrder[i]);
      // Creation order is offset order: past the snapshot's offset nothing further can be active in it.
      if (c && c.createdOffset > offset) return { contracts, positions, next: undefined };
      if (!c || c.transient) continue;
      if (c.archivedOffset !== undefined && c.archivedOffset <= offset) continue;
      if (!accept(c)) continue;
      contracts.push(c);
      positions.push(i);
    }
    return { contracts, positions, next: i < this.contractOrder.length ? i : undefined };
  }

  get packages(): PackageStore {
    return this.s.packages;
  }

  vetting(synchronizerId: string): VettingState | undefined {
    return this.s.vetting.get(synchronizerId);
  }

  /** A sorted, de-duplicated party list, shared with every equal list (keeps 100k events small). */
  partyList(list: Iterable<string>): readonly string[] {
    const sorted = Array.from(list).sort();
    const unique = sorted.filter((party, i) => i === 0 || party !== sorted[i - 1]);
    const id = unique.join('\n');
    let shared = this.partyLists.get(id);
    if (!shared) {
      shared = Object.freeze(unique);
      this.partyLists.set(id, shared);
    }
    return shared;
  }

  now(): Micros {
    return microsOf(this.options.clock());
  }

  on(event: LedgerEvent, listener: () => void): void {
    this.events.on(event, listener);
  }
  off(event: LedgerEvent, listener: () => void): void {
    this.events.off(event, listener);
  }

  // ---------------------------------------------------------------- parties and users

  /**
   * Allocates `hint::<namespace>` and records a topology transaction (ParticipantAuthorizationAdded)
   * on every synchronizer. `at` backdates it (for the seed).
   */
  allocateParty(hint: string, permission: Permission = 'SUBMISSION', at?: Micros): string {
    return this.hostParty(this.ids.namespacedId(hint, this.s.namespace), permission, at);
  }

  /** Hosts a party with this id (a party of another participant's namespace, on a network): its topology transaction as for {@link allocateParty}. */
  hostParty(party: string, permission: Permission = 'SUBMISSION', at?: Micros): string {
    if (this.s.parties.has(party)) {
      throw new LedgerApiError('PARTY_ALREADY_EXISTS', `Party already exists: party ${party} is already allocated on this node`);
    }
    this.s.parties.set(party, { party, permission, revoked: false });
    this.recordTopology({ change: 'Added', partyId: party, participantId: this.participantId, permission }, at);
    return party;
  }

  changePartyPermission(party: string, permission: Permission, at?: Micros): void {
    const record = this.requireParty(party);
    record.permission = permission;
    this.recordTopology({ change: 'Changed', partyId: party, participantId: this.participantId, permission }, at);
  }

  revokeParty(party: string, at?: Micros): void {
    this.requireParty(party).revoked = true;
    this.recordTopology({ change: 'Revoked', partyId: party, participantId: this.participantId }, at);
  }

  private requireParty(party: string): PartyRecord {
    const record = this.s.parties.get(party);
    if (!record) throw invalidArgument(`Party not known on this participant: ${party}`);
    return record;
  }

  private recordTopology(event: TopologyEventRecord, at?: Micros): void {
    this.batch(() => {
      for (const sync of this.s.synchronizers) {
        const recordTime = this.nextRecordTime(at);
        const update: TopologyRecord = {
          kind: 'topology',
          offset: this.s.ledgerEnd + 1,
          updateId: this.ids.updateId(),
          recordTime,
          synchronizerId: sync.id,
          events: [event],
        };
        this.append(update);
      }
    });
  }

  putUser(user: { id: string; primaryParty?: string; isDeactivated?: boolean; rights: UserRight[] }): void {
    this.s.users.set(user.id, { id: user.id, primaryParty: user.primaryParty ?? '', isDeactivated: user.isDeactivated ?? false, rights: user.rights });
    this.changed();
  }

  // ---------------------------------------------------------------- commands

  /** Runs a submission: deduplication, then `execute`. Throws the error Canton would answer with. */
  submit(request: SubmitRequest, at?: Micros): TransactionRecord {
    const changeId = [request.userId, [...new Set(request.actAs)].sort().join(','), request.commandId].join('\n');
    const deduplication = request.deduplication ?? { kind: 'duration', micros: this.maxDeduplicationMicros };
    try {
      this.checkDuplicate(changeId, deduplication);
    } catch (e) {
      if (e instanceof LedgerApiError && e.code === 'DUPLICATE_COMMAND') this.rejected(request, e);
      throw e;
    }
    const tx = this.execute(request, at);
    this.s.dedup.set(changeId, { submissionId: request.submissionId, updateId: tx.updateId, offset: tx.offset, recordTime: tx.recordTime });
    this.s.completions.push({ ...this.completionOf(request), offset: tx.offset, synchronizerId: tx.synchronizerId, recordTime: tx.recordTime, updateId: tx.updateId });
    this.events.emit('completed');
    return tx;
  }

  /**
   * A rejection found where Canton finds it in the sync protocol (deduplication): it takes an offset
   * of its own, with no update (the update streams skip it; the completion carries it).
   */
  private rejected(request: SubmitRequest, error: LedgerApiError): void {
    const synchronizerId = request.synchronizerId || this.s.synchronizers[0].id;
    const recordTime = this.nextRecordTime();
    this.s.ledgerEnd += 1;
    this.s.completions.push({ ...this.completionOf(request), offset: this.s.ledgerEnd, synchronizerId, recordTime, status: rejectionStatus(error, request.submissionId) });
    this.events.emit('completed');
    this.changed();
  }

  private completionOf(request: SubmitRequest): Pick<CompletionRecord, 'commandId' | 'submissionId' | 'userId' | 'actAs' | 'deduplication'> {
    const deduplication = request.deduplication ?? { kind: 'duration', micros: this.maxDeduplicationMicros };
    return { commandId: request.commandId, submissionId: request.submissionId, userId: request.userId, actAs: this.partyList(request.actAs), deduplication };
  }

  /**
   * The completions `accept`s, oldest first, at most `max`: those there now, then (when fewer) the new
   * ones as they come, until none came for `idleMs` (the timer also runs before the first one).
   */
  async collectCompletions(accept: (c: CompletionRecord) => boolean, max: number, idleMs: number, signal: AbortSignal): Promise<CompletionRecord[]> {
    const out: CompletionRecord[] = [];
    let next = 0;
    const scan = () => {
      const before = out.length;
      for (; next < this.s.completions.length && out.length < max; next++) if (accept(this.s.completions[next])) out.push(this.s.completions[next]);
      return out.length - before;
    };
    scan();
    let deadline = Date.now() + idleMs;
    while (out.length < max && !signal.aborted) {
      const came = await new Promise<boolean>((resolve) => {
        const ms = deadline - Date.now();
        if (ms <= 0 || signal.aborted) return resolve(false);
        const finish = (v: boolean) => {
          clearTimeout(timer);
          this.events.off('completed', onCompleted);
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        };
        const onCompleted = () => finish(true);
        const onAbort = () => finish(false);
        const timer = setTimeout(() => finish(false), ms);
        this.events.on('completed', onCompleted);
        signal.addEventListener('abort', onAbort);
      });
      if (!came) break;
      if (scan() > 0) deadline = Date.now() + idleMs;
    }
    return out;
  }

  /** Interprets the commands and commits the transaction (no deduplication: the seed and bulk data use this). */
  execute(request: ExecuteRequest, at?: Micros): TransactionRecord {
    const recordTime = Math.max(at ?? this.now(), this.s.lastRecordTime + 1);
    // Ledger time precedes record time a little, as it does on a real synchronizer.
    const effectiveAt = recordTime - 1234;
    const prepared = interpret(this.interpreterView, {
      commands: request.commands,
      actAs: request.actAs,
      readAs: request.readAs,
      synchronizerId: request.synchronizerId,
      effectiveAt,
    });
    return this.commit(
      {
        updateId: this.ids.updateId(),
        commandId: request.commandId,
        workflowId: request.workflowId,
        actAs: this.partyList(request.actAs),
        effectiveAt,
        synchronizerId: prepared.synchronizerId,
        traceparent: request.traceparent,
        nodes: prepared.nodes,
      },
      prepared.created,
      recordTime,
    );
  }

  /**
   * Commits a transaction another participant of the network committed, as this participant sees
   * it: its own projection (the nodes it hosts an informee of, its own records of their contracts),
   * at its own next offset, with the same update id and record time.
   */
  receiveTransaction(tx: TransactionDraft, created: readonly ContractRecord[], recordTime: Micros): TransactionRecord {
    return this.commit(tx, created, recordTime);
  }

  private commit(draft: TransactionDraft, created: readonly ContractRecord[], recordTime: Micros): TransactionRecord {
    const tx: TransactionRecord = { kind: 'transaction', offset: this.s.ledgerEnd + 1, ...draft, recordTime: this.nextRecordTime(recordTime) };
    // Archives first: a rename archives a keyed contract and creates one with the same key.
    for (const node of tx.nodes) {
      if (node.kind === 'exercised' && node.consuming) {
        node.contract.archivedOffset = tx.offset;
        node.contract.archivedNodeId = node.nodeId;
        if (node.contract.key !== null) this.activeKeys.delete(keyId(node.contract.template, node.contract.key));
      }
    }
    for (const c of created) {
      c.createdOffset = tx.offset;
      this.s.contracts.set(c.contractId, c);
      this.contractOrder.push(c.contractId);
      if (c.key !== null && c.archivedOffset === undefined) this.activeKeys.set(keyId(c.template, c.key), c.contractId);
    }
    this.append(tx);
    return tx;
  }

  /**
   * Interprets commands as `execute` would and commits nothing: no update, no contract, and the
   * ledger's id generator does not move. The new contracts are named from a stream of their own, so
   * two prepares never share an id and, like Canton's, none is the id a later submission gets.
   */
  preview(request: Pick<ExecuteRequest, 'actAs' | 'readAs' | 'commands' | 'synchronizerId'>): PreviewedTransaction {
    const effectiveAt = Math.max(this.now(), this.s.lastRecordTime + 1) - 1234;
    const ids = this.previewIds;
    const view: LedgerView = { ...this.interpreterView, newContractId: () => ids.contractId() };
    const prepared = interpret(view, { commands: request.commands, actAs: request.actAs, readAs: request.readAs, synchronizerId: request.synchronizerId, effectiveAt });
    const created = new Set(prepared.created.map((c) => c.contractId));
    const inputs = new Map<string, ContractRecord>();
    for (const node of prepared.nodes) if (node.kind === 'exercised' && !created.has(node.contract.contractId)) inputs.set(node.contract.contractId, node.contract);
    const nodeSeeds = prepared.nodes.map((node) => ({ nodeId: node.nodeId, seed: ids.hex(64) }));
    return { prepared, effectiveAt, inputs: [...inputs.values()], nodeSeeds };
  }

  private checkDuplicate(changeId: string, period: DeduplicationPeriod): void {
    if (period.kind === 'duration' && period.micros > this.maxDeduplicationMicros) {
      throw new LedgerApiError(
        'INVALID_DEDUPLICATION_PERIOD',
        `The submitted command had an invalid deduplication period: The given deduplication duration of ${period.micros / 1_000_000}s exceeds the maximum deduplication duration of ${this.maxDeduplicationMicros / 1_000_000}s`,
        { context: { max_deduplication_duration: `${this.maxDeduplicationMicros / 1_000_000}s` } },
      );
    }
    const previous = this.s.dedup.get(changeId);
    if (!previous) return;
    const duplicate = period.kind === 'duration' ? this.now() - previous.recordTime < period.micros : previous.offset > period.offset;
    if (duplicate) {
      throw new LedgerApiError('DUPLICATE_COMMAND', 'A command with the given command id has already been successfully processed', {
        context: { existing_submission_id: previous.submissionId, completion_offset: String(previous.offset) },
      });
    }
  }

  /** What the interpreter reads; a network's participant narrows the vetting it chooses package versions from. */
  protected get interpreterView(): LedgerView {
    return {
      activeContract: (id) => this.activeContract(id),
      contractIdByKey: (id) => this.activeKeys.get(id),
      vettedOn: (syncId) => new Set(this.s.vetting.get(syncId)?.packages.keys() ?? []),
      packages: this.s.packages,
      synchronizerIds: this.s.synchronizers.map((s) => s.id),
      newContractId: () => this.ids.contractId(),
      parties: (list) => this.partyList(list),
    };
  }

  /** Moves a contract to another synchronizer: an unassignment on the source, then an assignment on the target. */
  reassign(contractId: string, target: string, submitter: string, at?: Micros): [ReassignmentRecord, ReassignmentRecord] {
    const contract = this.activeContract(contractId);
    if (!contract) throw new LedgerApiError('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, { resources: [['ErrorResource(CID)', contractId]] });
    if (!this.s.synchronizers.some((s) => s.id === target) || target === contract.synchronizerId) {
      throw invalidArgument(`Cannot reassign contract ${contractId}: the target must be another connected synchronizer`);
    }
    let pair!: [ReassignmentRecord, ReassignmentRecord];
    this.batch(() => {
      const out = this.unassign(contractId, target, submitter, at);
      pair = [out, this.assign(contractId, at)];
    });
    return pair;
  }

  /**
   * The first half of a reassignment: the contract leaves its synchronizer for `target` and is in
   * flight until {@link assign} (an incomplete reassignment, as a multi-synchronizer participant has them).
   */
  unassign(contractId: string, target: string, submitter: string, at?: Micros): ReassignmentRecord {
    const contract = this.activeContract(contractId);
    if (!contract) throw new LedgerApiError('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, { resources: [['ErrorResource(CID)', contractId]] });
    if (contract.unassigned) throw invalidArgument(`Cannot reassign contract ${contractId}: it is being reassigned already`);
    if (!this.s.synchronizers.some((s) => s.id === target) || target === contract.synchronizerId) {
      throw invalidArgument(`Cannot reassign contract ${contractId}: the target must be another connected synchronizer`);
    }
    const recordTime = this.nextRecordTime(at);
    const pending = {
      offset: this.s.ledgerEnd + 1,
      reassignmentId: this.ids.reassignmentId(),
      source: contract.synchronizerId,
      target,
      submitter,
      reassignmentCounter: contract.reassignmentCounter + 1,
      assignmentExclusivity: recordTime + 60_000_000,
    };
    const record = this.reassignmentStep('unassigned', contract, pending, recordTime);
    contract.unassigned = pending;
    return record;
  }

  /** The second half of a reassignment: the contract an {@link unassign} left in flight arrives on its target. */
  assign(contractId: string, at?: Micros): ReassignmentRecord {
    const contract = this.activeContract(contractId);
    const pending = contract?.unassigned;
    if (!contract || !pending) throw invalidArgument(`Cannot assign contract ${contractId}: it is not being reassigned`);
    contract.unassigned = undefined;
    contract.synchronizerId = pending.target;
    contract.reassignmentCounter = pending.reassignmentCounter;
    return this.reassignmentStep('assigned', contract, { ...pending, offset: this.s.ledgerEnd + 1, assignmentExclusivity: null }, this.nextRecordTime(at));
  }

  private reassignmentStep(step: 'unassigned' | 'assigned', contract: ContractRecord, r: PendingUnassignment, recordTime: Micros): ReassignmentRecord {
    const record: ReassignmentRecord = {
      kind: 'reassignment',
      offset: r.offset,
      updateId: this.ids.updateId(),
      commandId: '',
      workflowId: '',
      recordTime,
      synchronizerId: step === 'unassigned' ? r.source : r.target,
      step,
      reassignmentId: r.reassignmentId,
      contract,
      source: r.source,
      target: r.target,
      submitter: r.submitter,
      reassignmentCounter: r.reassignmentCounter,
      assignmentExclusivity: r.assignmentExclusivity,
    };
    this.append(record);
    return record;
  }

  // ---------------------------------------------------------------- checkpoints, pruning, vetting

  /** Marks the current ledger end with the synchronizers' latest record times (once per offset). */
  appendCheckpoint(): CheckpointRecord | undefined {
    const last = this.s.entries[this.s.entries.length - 1];
    if (!last || last.kind === 'checkpoint') return undefined;
    const checkpoint: CheckpointRecord = {
      kind: 'checkpoint',
      offset: this.s.ledgerEnd,
      synchronizerTimes: this.s.synchronizers.map((sync) => ({ synchronizerId: sync.id, recordTime: this.s.recordTimes.get(sync.id) ?? this.s.lastRecordTime })),
    };
    this.append(checkpoint);
    return checkpoint;
  }

  /** Prunes the log up to `offset` (inclusive); archived contracts go too, active ones stay. */
  prune(offset: number): void {
    if (!Number.isSafeInteger(offset) || offset <= 0 || offset > this.s.ledgerEnd) {
      throw invalidArgument(`Cannot prune at offset ${offset}: it must be positive and at most the ledger end (${this.s.ledgerEnd})`);
    }
    if (offset <= this.s.prunedUpTo) return;
    this.s.entries.splice(0, this.indexAfterKey(offset * 2 + 1));
    for (const [id, c] of this.s.contracts) {
      if (c.archivedOffset !== undefined && c.archivedOffset <= offset) this.s.contracts.delete(id);
    }
    this.s.prunedUpTo = offset;
    this.changed();
  }

  /** Applies a vetting update to one synchronizer (unless `dryRun`); returns the states before and after. */
  updateVetting(synchronizerId: string, update: VettingUpdate, dryRun: boolean): { past: VettingState; next: VettingState } {
    const past = this.s.vetting.get(synchronizerId) ?? { serial: 0, packages: new Map() };
    const { next, changed } = applyVettingUpdate(past, update, this.s.packages);
    if (changed && !dryRun) {
      this.s.vetting.set(synchronizerId, next);
      this.changed();
    }
    return { past, next };
  }

  /** Adds packages (from a DAR); returns those that were new. */
  addPackages(packages: readonly PackageDef[]): PackageDef[] {
    const added = packages.filter((p) => this.s.packages.add(p));
    if (added.length > 0) this.changed();
    return added;
  }

  /** Vets packages on synchronizers where they are not vetted yet: one vetting transaction per synchronizer, as an upload does. */
  vetPackages(packages: readonly PackageDef[], synchronizerIds: readonly string[]): void {
    for (const synchronizerId of synchronizerIds) {
      const current = this.s.vetting.get(synchronizerId) ?? { serial: 0, packages: new Map() };
      const unvetted = packages.filter((p) => !current.packages.has(p.id));
      if (unvetted.length === 0) continue;
      const vetted = new Map(current.packages);
      for (const p of unvetted) vetted.set(p.id, { validFrom: null, validUntil: null });
      this.s.vetting.set(synchronizerId, { serial: current.serial + 1, packages: vetted });
      this.changed();
    }
  }

  // ---------------------------------------------------------------- bulk data

  /** Appends `count` realistic synthetic updates quickly (for benchmarks and big demos). */
  appendSynthetic(count: number, options: SyntheticOptions = {}): void {
    this.batch(() => appendSyntheticUpdates(this, count, options));
  }

  /** Runs `work` and notifies listeners once at the end, not once per update. */
  batch<T>(work: () => T): T {
    this.batchDepth++;
    try {
      return work();
    } finally {
      if (--this.batchDepth === 0) this.notify();
    }
  }

  // ---------------------------------------------------------------- internals

  /** Record times strictly increase; `at` asks for a particular time (the seed backdates its updates). */
  nextRecordTime(at?: Micros): Micros {
    const t = Math.max(at ?? this.now(), this.s.lastRecordTime + 1);
    this.s.lastRecordTime = t;
    return t;
  }

  private append(entry: LogEntry): void {
    this.s.entries.push(entry);
    if (entry.kind !== 'checkpoint') {
      this.s.ledgerEnd = entry.offset;
      this.s.recordTimes.set(entry.synchronizerId, entry.recordTime);
    }
    if (this.batchDepth === 0) this.notify();
  }

  private notify(): void {
    this.events.emit('appended');
    this.changed();
  }

  private changed(): void {
    this.events.emit('changed');
  }
}
