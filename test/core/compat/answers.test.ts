// The answer fields of the catalogue are the ones the client and its decoders read: real answers of
// demo participants of the oldest and the newest release line go through the real client calls as
// recording proxies, and every field a call reads (or asks for with `in`) must be one the catalogue
// declares for its operation.
import assert from 'node:assert/strict';
import { LedgerClient } from '../../../src/core/api/client';
import { HttpTransport } from '../../../src/core/api/http';
import { catalogueEntry, type CataloguedOperation, type ReadField } from '../../../src/core/compat/catalogue';
import type { OutgoingRequest } from '../../../src/core/compat/guard';
import { submissionOf } from '../../../src/core/submit/submission';
import type { ApiVersion } from '../../../src/participant/index';
import { startCheckedParticipant } from '../../support/specCheck';

/** Keys a decoder reads that are not fields of the answer. */
const NOT_FIELDS = new Set(['then', 'toJSON', 'constructor', 'length']);

let recording = false;
const read = new Map<CataloguedOperation, Set<string>>();

/** `value`, reporting each field read below it (list items as `[]`) to `paths` while recording. */
function recorder(value: unknown, path: string, paths: Set<string>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  return new Proxy(value, {
    get(target, key, receiver) {
      const member = Reflect.get(target, key, receiver);
      if (typeof key !== 'string' || !recording || NOT_FIELDS.has(key)) return member;
      if (Array.isArray(target)) return /^\d+$/.test(key) ? recorder(member, `${path}[]`, paths) : member;
      if (!Object.hasOwn(target, key) && key in Object.prototype) return member;
      paths.add(at(key));
      return recorder(member, at(key), paths);
    },
    has(target, key) {
      if (typeof key === 'string' && recording && !Array.isArray(target)) paths.add(at(key));
      return Reflect.has(target, key);
    },
  });
}

/** The fields read that the catalogue's answer tree of the operation does not have. */
function undeclared(operation: CataloguedOperation, paths: Iterable<string>): string[] {
  const root = catalogueEntry(operation).answer;
  return [...paths].filter((path) => {
    let field: ReadField | undefined = root;
    for (const segment of path.replace(/\[\]/g, '.[]').split('.').filter(Boolean)) {
      if (!field || field.opaque) break;
      field = segment === '[]' ? field.items : field.fields?.[segment];
    }
    return field === undefined;
  });
}

for (const apiVersion of ['3.3', '3.6'] as ApiVersion[]) {
  describe(`the answer fields read from a ${apiVersion} participant are the catalogue’s`, function () {
    this.timeout(60_000);
    type Patched = { beforeSend(this: LedgerClient, operation: CataloguedOperation, request: OutgoingRequest): void };
    const clientPrototype = LedgerClient.prototype as unknown as Patched;
    const beforeSend = clientPrototype.beforeSend;
    const json = HttpTransport.prototype.json;
    let current: CataloguedOperation | undefined;

    before(() => {
      clientPrototype.beforeSend = function (operation, request) {
        current = operation;
        return beforeSend.call(this, operation, request);
      };
      HttpTransport.prototype.json = async function <T>(this: HttpTransport, req: Parameters<HttpTransport['json']>[0]): Promise<T> {
        const answer = await json.call(this, req);
        const operation = current;
        if (!operation) return answer as T;
        if (!read.has(operation)) read.set(operation, new Set());
        return recorder(answer, '', read.get(operation)!) as T;
      };
    });
    after(() => {
      clientPrototype.beforeSend = beforeSend;
      HttpTransport.prototype.json = json;
      read.clear();
    });

    /** Runs one client call with its answers recorded. */
    async function recorded<T>(call: () => Promise<T>): Promise<T> {
      recording = true;
      try {
        return await call();
      } finally {
        recording = false;
        current = undefined;
      }
    }

    it('for every call of the client that answers with JSON', async () => {
      const p = await startCheckedParticipant({ port: 0, seed: 11, apiVersion, synchronizers: 2 });
      try {
        const client = new LedgerClient({ baseUrl: p.url, timeoutMs: 20_000 });
        const anyParty = { filter: { anyParty: true, includeReassignments: true, includeTopologyEvents: true, shape: 'ledger-effects' as const } };
        await recorded(() => client.version());
        await recorded(() => client.ledgerEnd());
        await recorded(() => client.prunedOffsets());
        await recorded(() => client.connectedSynchronizers());
        await recorded(() => client.participantId());
        await recorded(() => client.parties());
        await recorded(() => client.allocateParty(`answers-${apiVersion.replace(/\./g, '-')}`));
        await recorded(() => client.user('demo-admin'));
        await recorded(() => client.userRights('demo-admin'));
        const packageIds = await recorded(() => client.packages());
        await recorded(() => client.packageStatus(packageIds[0]));
        const page = await recorded(() => client.pageUpdates({ selection: anyParty, pageSize: 200 }));
        const kinds = new Set(page.updates.map((u) => u.kind));
        assert.ok(kinds.has('transaction') && kinds.has('reassignment') && kinds.has('topology'), [...kinds].join());
        const tx = page.updates.find((u) => u.kind === 'transaction')!;
        await recorded(() => client.updateByKey({ updateId: tx.updateId }, anyParty));
        await recorded(() => client.updateByKey({ offset: tx.offset }, anyParty));
        const contract = [...p.state.contracts.values()].find((c) => c.archivedOffset !== undefined)!;
        await recorded(() => client.eventsByContractId(contract.contractId, { filter: { anyParty: true } }));
        await recorded(() => client.pageActiveContracts({ filter: { anyParty: true }, pageSize: 5 }));
        const commands = { commands: [{ CreateCommand: { templateId: '#demo-iou:Iou:Iou', createArguments: { issuer: p.parties.alice, owner: p.parties.alice, currency: 'USD', amount: '1.0', observers: [] } } }], commandId: `answers-${Date.now()}`, actAs: [p.parties.alice] };
        await recorded(() => client.submitAndWaitForTransaction(submissionOf(commands).request));
        await recorded(() => client.prepare({ ...commands, commandId: `${commands.commandId}-prepare` }));
        if (apiVersion !== '3.3') {
          const vetted = await recorded(() => client.listVettedPackages({ topologyStateFilter: { participantIds: [p.participantId] } }));
          const vettedPackage = vetted[0].packages[0];
          await recorded(() => client.updateVettedPackages({ changes: [{ operation: { Vet: { value: { packages: [{ packageId: vettedPackage.packageId }] } } } }], dryRun: true, synchronizerId: vetted[0].synchronizerId }));
        }
        const operations = [...read.keys()];
        assert.ok(operations.length >= (apiVersion === '3.3' ? 16 : 19), `answers of ${operations.join(', ')} were recorded`);
        const missing = operations.flatMap((op) => undeclared(op, read.get(op)!).map((path) => `${op}: ${path}`));
        assert.deepEqual(missing, []);
        // It records: the fields of a transaction's created events were read.
        assert.ok([...read.get('submitAndWaitForTransaction')!].includes('transaction.events[].CreatedEvent.contractId'));
      } finally {
        await p.close();
      }
    });
  });
}
