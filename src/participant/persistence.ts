/**
 * Saving the ledger to a JSON file and loading it back. Events refer to contracts by id in the
 * file and are re-linked to the shared contract records on load. Saves are debounced and atomic
 * (write to a temporary file, then rename).
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { CompletionRecord } from './completions';
import { CATALOG, LEGACY_CATALOG_IDS, PRE_CONTROLLERS_IDS, PRE_HOLDING_IOU_IDS } from './catalog';
import type { DemoLedger, DedupRecord, DemoLedgerData } from './ledger';
import type { ContractRecord, LogEntry, PartyRecord, SynchronizerInfo, TransactionNode, UserRecord } from './model';
import { PackageDef, PackageStore, type PackageOrigin, type TemplateDef } from './packages';
import type { Micros } from './time';
import type { VettingBounds } from './vetting';

/**
 * 2: the catalog's packages are real Daml-LF (other ids), and packages from DARs are saved.
 * 3: demo-iou implements the Holding interface of demo-holding (other ids for demo-iou).
 * 4: the catalog's choices carry their controllers (other ids for demo-holding, demo-iou, demo-asset).
 */
const FORMAT_VERSION = 4;

type StoredContract = Omit<ContractRecord, 'template'> & { templateId: string };
type StoredNode =
  | (Omit<TransactionNode & { kind: 'created' }, 'contract'> & { contractId: string })
  | (Omit<TransactionNode & { kind: 'exercised' }, 'contract' | 'template'> & { contractId: string; templateId: string });
type StoredEntry =
  | Exclude<LogEntry, { kind: 'transaction' } | { kind: 'reassignment' }>
  | (Omit<LogEntry & { kind: 'transaction' }, 'nodes'> & { nodes: StoredNode[] })
  | (Omit<LogEntry & { kind: 'reassignment' }, 'contract'> & { contractId: string });

interface StoredState {
  format: number;
  idState: [number, number, number, number];
  namespace: string;
  participantName: string;
  synchronizers: SynchronizerInfo[];
  ledgerEnd: number;
  prunedUpTo: number;
  lastRecordTime: Micros;
  recordTimes: [string, Micros][];
  parties: PartyRecord[];
  users: UserRecord[];
  dedup: [string, DedupRecord][];
  /** Absent in states saved before completions were kept. */
  completions?: CompletionRecord[];
  vetting: [string, { serial: number; packages: [string, VettingBounds][] }][];
  contracts: StoredContract[];
  entries: StoredEntry[];
  /** Packages beyond the catalog (loaded from DARs or uploaded): their ArchivePayloads in base64. */
  packages?: { payload: string; origin: PackageOrigin }[];
}

function toStored(s: DemoLedgerData): StoredState {
  return {
    format: FORMAT_VERSION,
    idState: s.idState,
    namespace: s.namespace,
    participantName: s.participantName,
    synchronizers: s.synchronizers,
    ledgerEnd: s.ledgerEnd,
    prunedUpTo: s.prunedUpTo,
    lastRecordTime: s.lastRecordTime,
    recordTimes: [...s.recordTimes],
    parties: [...s.parties.values()],
    users: [...s.users.values()],
    dedup: [...s.dedup],
    completions: s.completions,
    vetting: [...s.vetting].map(([id, v]) => [id, { serial: v.serial, packages: [...v.packages] }]),
    contracts: [...s.contracts.values()].map(({ template, ...rest }) => ({ ...rest, templateId: template.id })),
    packages: s.packages
      .all()
      .filter((p) => p.origin !== 'catalog')
      .map((p) => ({ payload: Buffer.from(p.payload).toString('base64'), origin: p.origin })),
    entries: s.entries.map((entry): StoredEntry => {
      if (entry.kind === 'reassignment') {
        const { contract, ...rest } = entry;
        return { ...rest, contractId: contract.contractId };
      }
      if (entry.kind !== 'transaction') return entry;
      return {
        ...entry,
        nodes: entry.nodes.map((node): StoredNode => {
          if (node.kind === 'created') {
            const { contract, ...rest } = node;
            return { ...rest, contractId: contract.contractId };
          }
          const { contract, template, ...rest } = node;
          return { ...rest, contractId: contract.contractId, templateId: template.id };
        }),
      };
    }),
  };
}

function fromStored(stored: StoredState, path: string): DemoLedgerData {
  if (![1, 2, 3, FORMAT_VERSION].includes(stored.format)) throw new Error(`${path}: unsupported demo participant state format ${stored.format}`);
  // Format 1 names the catalog's packages by the ids they had before they were real Daml-LF, format 2
  // demo-iou by its ids from before Iou implemented Holding, formats 2 and 3 the others by their ids
  // from before the choices carried controllers.
  const renamed = stored.format === 1 ? LEGACY_CATALOG_IDS : stored.format === 2 ? new Map([...PRE_CONTROLLERS_IDS, ...PRE_HOLDING_IOU_IDS]) : stored.format === 3 ? PRE_CONTROLLERS_IDS : undefined;
  const packageId = (id: string) => renamed?.get(id) ?? id;
  const packages = new PackageStore(CATALOG);
  for (const p of stored.packages ?? []) packages.add(PackageDef.fromPayload(Buffer.from(p.payload, 'base64'), p.origin));
  const template = (id: string): TemplateDef => {
    const separator = id.indexOf(':');
    const found = packages.template(`${packageId(id.slice(0, separator))}${id.slice(separator)}`);
    if (!found) throw new Error(`${path}: unknown template ${id}`);
    return found;
  };
  // Party lists are shared and frozen, as the ledger makes them (the encoder caches their JSON).
  const lists = new Map<string, readonly string[]>();
  const list = (parties: readonly string[]) => {
    const id = parties.join('\n');
    if (!lists.has(id)) lists.set(id, Object.freeze([...parties]));
    return lists.get(id)!;
  };
  const contracts = new Map<string, ContractRecord>(
    stored.contracts.map(({ templateId, ...c }) => [
      c.contractId,
      { ...c, template: template(templateId), signatories: list(c.signatories), observers: list(c.observers), stakeholders: list(c.stakeholders) },
    ]),
  );
  const contract = (id: string): ContractRecord => {
    const found = contracts.get(id);
    if (!found) throw new Error(`${path}: an event refers to unknown contract ${id}`);
    return found;
  };
  const entries = stored.entries.map((entry): LogEntry => {
    if (entry.kind === 'reassignment') {
      const { contractId, ...rest } = entry;
      return { ...rest, contract: contract(contractId) };
    }
    if (entry.kind !== 'transaction') return entry;
    return {
      ...entry,
      actAs: list(entry.actAs),
      nodes: entry.nodes.map((node): TransactionNode => {
        if (node.kind === 'created') {
          const { contractId, ...rest } = node;
          return { ...rest, contract: contract(contractId), witnesses: list(node.witnesses) };
        }
        const { contractId, templateId, ...rest } = node;
        return { ...rest, contract: contract(contractId), template: template(templateId), witnesses: list(node.witnesses), actingParties: list(node.actingParties) };
      }),
    };
  });
  return {
    idState: stored.idState,
    namespace: stored.namespace,
    participantName: stored.participantName,
    synchronizers: stored.synchronizers,
    entries,
    contracts,
    parties: new Map(stored.parties.map((p) => [p.party, p])),
    users: new Map(stored.users.map((u) => [u.id, u])),
    dedup: new Map(stored.dedup),
    completions: stored.completions ?? [],
    vetting: new Map(
      stored.vetting.map(([id, v]) => {
        const vetted = new Map(v.packages.map(([p, bounds]) => [packageId(p), bounds]));
        if (renamed) vetNewDependencies(vetted, packages);
        return [id, { serial: v.serial, packages: vetted }];
      }),
    ),
    packages,
    ledgerEnd: stored.ledgerEnd,
    prunedUpTo: stored.prunedUpTo,
    recordTimes: new Map(stored.recordTimes),
    lastRecordTime: stored.lastRecordTime,
  };
}

/**
 * Vets, alongside each vetted package, the dependencies it gained since the state was saved (demo-iou
 * on demo-holding), with the same bounds: Canton never lets a package be vetted without them.
 */
function vetNewDependencies(vetted: Map<string, VettingBounds>, packages: PackageStore): void {
  for (const [id, bounds] of [...vetted]) {
    const p = packages.get(id);
    if (!p) continue;
    for (const dependency of packages.transitiveDependencies(p)) if (!vetted.has(dependency)) vetted.set(dependency, bounds);
  }
}

/** The saved state at `path`, or undefined when there is no file yet. */
export async function loadState(path: string): Promise<DemoLedgerData | undefined> {
  if (!existsSync(path)) return undefined;
  return fromStored(JSON.parse(await readFile(path, 'utf8')) as StoredState, path);
}

async function saveState(ledger: DemoLedger, path: string): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, JSON.stringify(toStored(ledger.state)));
  await rename(temporary, path);
}

/** Saves `ledger` to `path` shortly after every change, one write at a time. */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private readonly onChange = () => this.schedule();

  constructor(
    private readonly ledger: DemoLedger,
    private readonly path: string,
    private readonly log: (line: string) => void,
    private readonly delayMs = 200,
  ) {
    ledger.on('changed', this.onChange);
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
  }

  /** Writes now (after any write in progress). */
  flush(): Promise<void> {
    this.writing = this.writing
      .then(() => saveState(this.ledger, this.path))
      .catch((e: Error) => this.log(`could not save the state to ${this.path}: ${e.message}`));
    return this.writing;
  }

  /** Stops listening and writes the final state. */
  async close(): Promise<void> {
    this.ledger.off('changed', this.onChange);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
