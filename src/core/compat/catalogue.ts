/**
 * The catalogue of every request the extension and the CLI send: for each operation of the version
 * table (`../versions.ts`, which says which endpoint a release has for it), the query parameters and
 * body fields we send (always or sometimes, from or until a version, the enum values we use), and the
 * answer's fields the decoders rely on. `LedgerClient` sends only operations of this table (its calls
 * are typed by {@link CataloguedOperation}); a root hook of the tests fails a test during which the
 * client sent a field the catalogue does not declare, and the checker (`check.ts`) holds the catalogue
 * against a participant's own API description.
 *
 * Positions are written as the JSON Ledger API's specs write them: an object's members by name, a
 * variant's cases by name (a case is a member of a one-member object), list items, map values.
 */
import { atLeast, type OperationName, type RequestSchemaName } from '../versions';
import { UPDATES_CONTRACT_ID_FIELD } from '../api/contractIdFilter';

/** The versions a field belongs to: from `since` on, before `until` (both optional). */
export interface VersionRange {
  since?: string;
  until?: string;
}

/** One position of a request body (or a query parameter) that we send. */
export interface SentField extends VersionRange {
  /** Sent in some requests only (default: in every request, at the versions of its range). */
  sometimes?: true;
  /** Sent in every request before this version (the client fills the default an older decoder insists on), sometimes after. */
  alwaysUntil?: string;
  /**
   * What a commands or vetting file says: sent as the file writes it. A required field a file may
   * leave out is refused request by request (the file's own check names it), not listed as ours.
   */
  file?: true;
  /**
   * Sent only where the participant's own description declares it (a field no published spec
   * confirms the name of): a description without it is not a finding.
   */
  ifDeclared?: true;
  /** The enum values we send at this position. */
  values?: readonly string[];
  /** An object's members, or a variant's cases. */
  fields?: Readonly<Record<string, SentField>>;
  /** A list's items. */
  items?: SentField;
  /** A map's values (`filtersByParty`: party → filters). */
  entries?: SentField;
  /** Any JSON the spec leaves open (a Daml value): not walked. */
  opaque?: true;
}

/** One position of an answer that a decoder reads. */
export interface ReadField extends VersionRange {
  fields?: Readonly<Record<string, ReadField>>;
  items?: ReadField;
  entries?: ReadField;
  /** Any JSON (a Daml value): only its presence is relied on. */
  opaque?: true;
}

export interface CatalogueEntry {
  /** Query parameters by name (path parameters come from the endpoint's path). */
  query?: Readonly<Record<string, SentField>>;
  /** The JSON body, named as the specs name its schema; `bytes` for a binary body (a DAR). */
  body?: { schema: RequestSchemaName | 'JsCommands'; root: SentField } | 'bytes';
  /** The JSON answer the decoders read (a list answer: its elements under `items`). */
  answer?: ReadField;
  /** The answer is not JSON: `bytes` (a package archive) or `text` (a health check's). */
  answerKind?: 'bytes' | 'text';
}

// ---------------------------------------------------------------- building blocks

const always: SentField = {};
const sometimes: SentField = { sometimes: true };
const read: ReadField = {};

function some(field: SentField): SentField {
  return { ...field, sometimes: true };
}
function obj(fields: Record<string, SentField>, extra: Omit<SentField, 'fields'> = {}): SentField {
  return { ...extra, fields };
}
function fromFile(field: SentField): SentField {
  const mark = (f: SentField): SentField => ({
    ...f,
    file: true,
    ...(f.fields ? { fields: Object.fromEntries(Object.entries(f.fields).map(([k, v]) => [k, mark(v)])) } : {}),
    ...(f.items ? { items: mark(f.items) } : {}),
    ...(f.entries ? { entries: mark(f.entries) } : {}),
  });
  return mark(field);
}
function answer(fields: Record<string, ReadField>, range: VersionRange = {}): ReadField {
  return { ...range, fields };
}
function listOf(item: ReadField, range: VersionRange = {}): ReadField {
  return { ...range, items: item };
}
/** A variant case carried under `value` (most of the Ledger API's variants). */
function valueCase(value: ReadField | SentField, range: VersionRange = {}) {
  return { ...range, fields: { value } };
}

export const TRANSACTION_SHAPES = ['TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const;

// ---------------------------------------------------------------- what we send

const FILTERS = obj({
  cumulative: {
    items: obj({
      identifierFilter: obj({
        WildcardFilter: some(valueCase(obj({ includeCreatedEventBlob: always }))),
        TemplateFilter: some(valueCase(obj({ templateId: always, includeCreatedEventBlob: always }))),
        InterfaceFilter: some(valueCase(obj({ interfaceId: always, includeInterfaceView: always, includeCreatedEventBlob: always }))),
      }),
    }),
  },
});
/** `buildEventFormat`: both party fields and `verbose` are always written (the 3.3/3.4.11 decoders insist). */
const EVENT_FORMAT = obj({ filtersByParty: { entries: FILTERS }, filtersForAnyParty: some(FILTERS), verbose: always });
const TRANSACTION_FORMAT = obj({ eventFormat: EVENT_FORMAT, transactionShape: { values: TRANSACTION_SHAPES } });
const UPDATE_FORMAT = obj({
  includeTransactions: some(TRANSACTION_FORMAT),
  includeReassignments: some(EVENT_FORMAT),
  includeTopologyEvents: some(obj({ includeParticipantAuthorizationEvents: obj({ parties: always }) })),
});
const LEGACY_FILTER = obj({ filtersByParty: { entries: FILTERS }, filtersForAnyParty: some(FILTERS) });
/** `buildGetUpdatesRequest`: the same body for the list and the websocket's first frame. */
const GET_UPDATES = obj({
  beginExclusive: always,
  endInclusive: sometimes,
  descendingOrder: { sometimes: true, since: '3.5.1' },
  updateFormat: some(UPDATE_FORMAT),
  // The legacy form (`--legacy`, the views' legacy filter): never together with updateFormat; from
  // 3.6.1, which refuses both top-level fields, the legacy form is sent as its updateFormat.
  filter: { ...some(LEGACY_FILTER), until: '3.6.1' },
  verbose: { until: '3.6.1' },
  // 3.8's contract-id filter (lineage, Contract Events): a name no source confirms, sent only where declared.
  [UPDATES_CONTRACT_ID_FIELD]: { sometimes: true, ifDeclared: true, since: '3.8.0' },
});

/**
 * 3.7's active contracts service leaves out incomplete reassignments unless asked (Canton 3.7 release
 * notes); no published spec or client confirms the field's JSON name, so it goes only where the
 * participant's own description has it.
 */
const INCOMPLETE_REASSIGNMENTS: SentField = { sometimes: true, ifDeclared: true, since: '3.7.0' };

const DURATION = obj({ seconds: always, nanos: sometimes });
const COMMAND = obj({
  CreateCommand: some(obj({ templateId: always, createArguments: { opaque: true } })),
  ExerciseCommand: some(obj({ templateId: always, contractId: always, choice: always, choiceArgument: { opaque: true } })),
  CreateAndExerciseCommand: some(obj({ templateId: always, createArguments: { opaque: true }, choice: always, choiceArgument: { opaque: true } })),
  ExerciseByKeyCommand: some(obj({ templateId: always, contractKey: { opaque: true }, choice: always, choiceArgument: { opaque: true } })),
});
const DISCLOSED_CONTRACT = obj({ createdEventBlob: always, templateId: sometimes, contractId: sometimes, synchronizerId: sometimes });
const PREFETCH_KEY = obj({ templateId: always, contractKey: { opaque: true }, limit: { sometimes: true, since: '3.5.0' } });
/** A commands file's JsCommands (`commandsOf` makes sure of commands, commandId and actAs). */
const JS_COMMANDS = fromFile(
  obj({
    commands: { items: COMMAND },
    commandId: always,
    actAs: always,
    readAs: sometimes,
    userId: sometimes,
    workflowId: sometimes,
    deduplicationPeriod: some(obj({ DeduplicationDuration: some(valueCase(DURATION)), DeduplicationOffset: some(valueCase(always)) })),
    minLedgerTimeAbs: sometimes,
    minLedgerTimeRel: some(DURATION),
    submissionId: sometimes,
    disclosedContracts: some({ items: DISCLOSED_CONTRACT }),
    synchronizerId: sometimes,
    packageIdSelectionPreference: sometimes,
    prefetchContractKeys: { sometimes: true, since: '3.4.0', items: PREFETCH_KEY },
    tapsMaxPasses: { sometimes: true, since: '3.4.12' },
  }),
);
/** `prepareRequestOf`, then `strictPrepareRequest` before 3.4.12. */
const PREPARE_REQUEST = fromFile(
  obj({
    commands: JS_COMMANDS.fields!.commands,
    commandId: always,
    actAs: always,
    readAs: sometimes,
    userId: { sometimes: true, alwaysUntil: '3.4.12' },
    synchronizerId: { sometimes: true, alwaysUntil: '3.4.12' },
    verboseHashing: { sometimes: true, alwaysUntil: '3.4.12' },
    minLedgerTime: some(obj({ time: obj({ MinLedgerTimeAbs: some(valueCase(always)), MinLedgerTimeRel: some(valueCase(DURATION)) }) })),
    disclosedContracts: JS_COMMANDS.fields!.disclosedContracts,
    packageIdSelectionPreference: sometimes,
    prefetchContractKeys: JS_COMMANDS.fields!.prefetchContractKeys,
  }),
);
const VETTING_REFS = { items: obj({ packageId: sometimes, packageName: sometimes, packageVersion: sometimes }, { alwaysUntil: '3.4.12' }) };
/** A vetting file (`vettingRequestFor`), then `strictVettingRequest` on 3.4.0–3.4.11. */
const UPDATE_VETTING = fromFile(
  obj({
    changes: {
      items: obj({
        operation: obj({
          Vet: some(valueCase(obj({ packages: VETTING_REFS, newValidFromInclusive: sometimes, newValidUntilExclusive: sometimes }))),
          Unvet: some(valueCase(obj({ packages: VETTING_REFS }))),
        }),
      }),
    },
    dryRun: { sometimes: true, alwaysUntil: '3.4.12' },
    synchronizerId: { sometimes: true, alwaysUntil: '3.4.12' },
    expectedTopologySerial: some(obj({ serial: obj({ Prior: some(valueCase(always)), NoPrior: some(obj({})) }) })),
    updateVettedPackagesForceFlags: {
      sometimes: true,
      values: ['UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES', 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES'],
    },
  }),
);
/** The legacy GET list (3.4.0–3.4.11) must carry pageToken and pageSize; the POST list only a token after the first page. */
const LIST_VETTING = obj({
  packageMetadataFilter: some(obj({ packageIds: sometimes, packageNamePrefixes: sometimes })),
  topologyStateFilter: some(obj({ participantIds: sometimes, synchronizerIds: sometimes })),
  pageToken: { sometimes: true, alwaysUntil: '3.4.12' },
  pageSize: { sometimes: true, alwaysUntil: '3.4.12' },
});
const LIST_QUERY = { limit: sometimes, stream_idle_timeout_ms: sometimes };

// ---------------------------------------------------------------- what we read

const TRACE_CONTEXT = answer({ traceparent: read });
const INTERFACE_VIEW = answer({ interfaceId: read, viewStatus: answer({ code: read, message: read }), viewValue: { opaque: true }, implementationPackageId: { since: '3.5.0' } });
/** `decodeCreatedEvent`. */
const CREATED_EVENT = answer({
  offset: read,
  nodeId: read,
  contractId: read,
  templateId: read,
  packageName: read,
  createArgument: { opaque: true },
  contractKey: { opaque: true },
  contractKeyHash: { since: '3.5.0' },
  createdAt: read,
  signatories: read,
  observers: read,
  witnessParties: read,
  interfaceViews: listOf(INTERFACE_VIEW),
  createdEventBlob: read,
  representativePackageId: { since: '3.4.0' },
  acsDelta: { since: '3.4.0' },
});
const ARCHIVED_EVENT = answer({ offset: read, nodeId: read, contractId: read, templateId: read, packageName: read, witnessParties: read, implementedInterfaces: read });
const EXERCISED_EVENT = answer({
  offset: read,
  nodeId: read,
  contractId: read,
  templateId: read,
  interfaceId: read,
  packageName: read,
  choice: read,
  choiceArgument: { opaque: true },
  actingParties: read,
  consuming: read,
  witnessParties: read,
  lastDescendantNodeId: read,
  exerciseResult: { opaque: true },
  implementedInterfaces: read,
  acsDelta: { since: '3.4.0' },
});
/** `decodeTransaction`: events carry no `value` wrapper. */
const JS_TRANSACTION = answer({
  offset: read,
  updateId: read,
  commandId: read,
  workflowId: read,
  effectiveAt: read,
  recordTime: read,
  synchronizerId: read,
  events: listOf(answer({ CreatedEvent: CREATED_EVENT, ArchivedEvent: ARCHIVED_EVENT, ExercisedEvent: EXERCISED_EVENT })),
  traceContext: TRACE_CONTEXT,
  externalTransactionHash: read,
  transactionHash: { since: '3.6.0' },
  paidTrafficCost: { since: '3.4.12' },
});
/** 3.3 called the reassignment id `unassignId`. */
const REASSIGNMENT_ID = { reassignmentId: { since: '3.4.0' }, unassignId: { until: '3.4.0' } };
const JS_REASSIGNMENT = answer({
  offset: read,
  updateId: read,
  commandId: read,
  workflowId: read,
  recordTime: read,
  synchronizerId: { since: '3.4.0' },
  events: listOf(
    answer({
      JsAssignmentEvent: answer({ ...REASSIGNMENT_ID, source: read, target: read, submitter: read, reassignmentCounter: read, createdEvent: CREATED_EVENT }),
      JsUnassignedEvent: valueCase(
        answer({
          ...REASSIGNMENT_ID,
          contractId: read,
          templateId: read,
          packageName: read,
          source: read,
          target: read,
          submitter: read,
          reassignmentCounter: read,
          assignmentExclusivity: read,
          witnessParties: read,
          offset: read,
          nodeId: read,
        }),
      ),
    }),
  ),
  paidTrafficCost: { since: '3.4.12' },
});
const AUTHORIZATION = answer({ partyId: read, participantId: read, participantPermission: read });
const AUTHORIZATION_REVOKED = answer({ partyId: read, participantId: read });
/** `decodeTopologyTransaction`: from 3.4 the variant sits under `event`, each case under `value`; 3.3 sent the cases bare. */
const TOPOLOGY_EVENT = answer({
  event: answer(
    {
      ParticipantAuthorizationAdded: valueCase(AUTHORIZATION),
      ParticipantAuthorizationChanged: valueCase(AUTHORIZATION),
      ParticipantAuthorizationRevoked: valueCase(AUTHORIZATION_REVOKED),
      ParticipantAuthorizationOnboarding: valueCase(AUTHORIZATION, { since: '3.5.0' }),
    },
    { since: '3.4.0' },
  ),
  ParticipantAuthorizationAdded: { ...AUTHORIZATION, until: '3.4.0' },
  ParticipantAuthorizationChanged: { ...AUTHORIZATION, until: '3.4.0' },
  ParticipantAuthorizationRevoked: { ...AUTHORIZATION_REVOKED, until: '3.4.0' },
});
const JS_TOPOLOGY_TRANSACTION = answer({ offset: read, updateId: read, synchronizerId: read, recordTime: read, events: listOf(TOPOLOGY_EVENT) });
const OFFSET_CHECKPOINT = answer({ offset: read, synchronizerTimes: listOf(answer({ synchronizerId: read, recordTime: read })) });
/** `decodeUpdate`: every case under `value`. */
const UPDATE_ELEMENT = answer({
  update: answer({
    Transaction: valueCase(JS_TRANSACTION),
    Reassignment: valueCase(JS_REASSIGNMENT),
    TopologyTransaction: valueCase(JS_TOPOLOGY_TRANSACTION),
    OffsetCheckpoint: valueCase(OFFSET_CHECKPOINT),
  }),
});
/** `decodeCompletion`. */
const COMPLETION = answer({
  commandId: read,
  userId: read,
  actAs: read,
  offset: read,
  updateId: read,
  submissionId: read,
  status: answer({ code: read, message: read }),
  synchronizerTime: answer({ synchronizerId: read, recordTime: read }),
  transactionHash: { since: '3.6.0' },
  paidTrafficCost: { since: '3.4.12' },
});
const COMPLETION_ELEMENT = answer({ completionResponse: answer({ Completion: valueCase(COMPLETION), OffsetCheckpoint: valueCase(OFFSET_CHECKPOINT) }) });
const ACTIVE_CONTRACT_ELEMENT = answer({
  contractEntry: answer({
    JsActiveContract: answer({ createdEvent: CREATED_EVENT, synchronizerId: read, reassignmentCounter: read }),
    // In-flight contracts (`activeContractOf`): the synchronizer they leave or reach, and the contract.
    JsIncompleteAssigned: answer({ assignedEvent: answer({ target: read, reassignmentCounter: read, createdEvent: CREATED_EVENT }) }),
    JsIncompleteUnassigned: answer({ createdEvent: CREATED_EVENT, unassignedEvent: answer({ source: read, reassignmentCounter: read }) }),
  }),
  streamContinuationToken: { since: '3.5.0' },
});
/** `decodeVettedPackages`. */
const VETTED_PACKAGES = answer({
  participantId: read,
  synchronizerId: read,
  topologySerial: read,
  packages: listOf(answer({ packageId: read, packageName: read, packageVersion: read, validFromInclusive: read, validUntilExclusive: read })),
});
const PARTY_RIGHT = valueCase(answer({ party: read }));
const USER = answer({ user: answer({ id: read, primaryParty: read }) });

// ---------------------------------------------------------------- the catalogue

/**
 * Every operation the client sends, with what it sends and reads. The operations of the version
 * table it never sends (it serves them in the demo participant) are left out: see {@link UNSENT_OPERATIONS}.
 */
export const CATALOGUE = {
  livez: { answerKind: 'text' },
  readyz: { answerKind: 'text' },
  version: { answer: answer({ version: read }) },
  ledgerEnd: { answer: answer({ offset: read }) },
  prunedOffsets: { answer: answer({ participantPrunedUpToInclusive: read, allDivulgedContractsPrunedUpToInclusive: read }) },
  connectedSynchronizers: {
    query: { party: sometimes, participantId: sometimes },
    answer: answer({ connectedSynchronizers: listOf(answer({ synchronizerAlias: read, synchronizerId: read, permission: read })) }),
  },
  participantId: { answer: answer({ participantId: read }) },
  parties: { query: { pageToken: sometimes }, answer: answer({ partyDetails: listOf(answer({ party: read, isLocal: read })), nextPageToken: read }) },
  allocateParty: {
    // 3.4.0–3.4.11 decoders insist on synchronizerId and userId: empty means what leaving them out means later.
    body: { schema: 'AllocatePartyRequest', root: obj({ partyIdHint: always, identityProviderId: always, synchronizerId: { since: '3.4.0', until: '3.4.12' }, userId: { since: '3.4.0', until: '3.4.12' } }) },
    answer: answer({ partyDetails: answer({ party: read }) }),
  },
  user: { answer: USER },
  authenticatedUser: { answer: USER },
  userRights: {
    answer: answer({
      rights: listOf(
        answer({
          kind: answer({
            CanActAs: PARTY_RIGHT,
            CanReadAs: PARTY_RIGHT,
            CanExecuteAs: { ...PARTY_RIGHT, since: '3.4.0' },
            ParticipantAdmin: read,
            IdentityProviderAdmin: read,
            CanReadAsAnyParty: read,
            CanExecuteAsAnyParty: { since: '3.4.0' },
          }),
        }),
      ),
    }),
  },
  packages: { answer: answer({ packageIds: read }) },
  packageArchive: { answerKind: 'bytes' },
  packageStatus: { answer: answer({ packageStatus: read }) },
  // `uploadDar` refuses the vetting options before sending where the version has only `/v2/packages`.
  uploadDar: { query: { vetAllPackages: { sometimes: true, since: '3.4.0' }, synchronizerId: { sometimes: true, since: '3.4.0' } }, body: 'bytes' },
  validateDar: { query: { synchronizerId: sometimes }, body: 'bytes' },
  listUpdates: { query: LIST_QUERY, body: { schema: 'GetUpdatesRequest', root: GET_UPDATES }, answer: listOf(UPDATE_ELEMENT) },
  updatesPage: {
    body: {
      schema: 'GetUpdatesPageRequest',
      root: obj({ updateFormat: UPDATE_FORMAT, beginOffsetExclusive: always, endOffsetInclusive: always, maxPageSize: always, descendingOrder: sometimes, pageToken: sometimes }),
    },
    answer: answer({ updates: listOf(UPDATE_ELEMENT), nextPageToken: read }),
  },
  updateByHash: { body: { schema: 'GetUpdateByHashRequest', root: obj({ transactionHash: always, updateFormat: UPDATE_FORMAT }) }, answer: UPDATE_ELEMENT },
  completionByHash: {
    body: { schema: 'GetCompletionByHashRequest', root: obj({ transactionHash: always }) },
    answer: answer({ acceptedCompletion: COMPLETION, lastRejectedCompletions: listOf(COMPLETION) }),
  },
  listCompletions: {
    query: LIST_QUERY,
    body: { schema: 'CompletionStreamRequest', root: obj({ userId: always, parties: always, beginExclusive: always }) },
    answer: listOf(COMPLETION_ELEMENT),
  },
  listCommandCompletions: { query: LIST_QUERY, body: { schema: 'GetCompletionsRequest', root: obj({ parties: always, beginExclusive: always }) }, answer: listOf(COMPLETION_ELEMENT) },
  subscribeUpdates: { body: { schema: 'GetUpdatesRequest', root: GET_UPDATES }, answer: UPDATE_ELEMENT },
  submitAndWaitForTransaction: {
    body: { schema: 'JsSubmitAndWaitForTransactionRequest', root: obj({ commands: JS_COMMANDS, transactionFormat: fromFile(TRANSACTION_FORMAT) }) },
    answer: answer({ transaction: JS_TRANSACTION }),
  },
  eventsByContractId: {
    body: { schema: 'GetEventsByContractIdRequest', root: obj({ contractId: always, eventFormat: EVENT_FORMAT }) },
    answer: answer({ created: answer({ createdEvent: CREATED_EVENT, synchronizerId: read }), archived: answer({ archivedEvent: ARCHIVED_EVENT, synchronizerId: read }) }),
  },
  updateById: { body: { schema: 'GetUpdateByIdRequest', root: obj({ updateId: always, updateFormat: UPDATE_FORMAT }) }, answer: UPDATE_ELEMENT },
  updateByOffset: { body: { schema: 'GetUpdateByOffsetRequest', root: obj({ offset: always, updateFormat: UPDATE_FORMAT }) }, answer: UPDATE_ELEMENT },
  preferredPackages: {
    body: {
      schema: 'GetPreferredPackagesRequest',
      // Before 3.4.12 the decoder insists on synchronizerId: empty means every connected synchronizer.
      root: obj({ packageVettingRequirements: { items: obj({ parties: { items: always }, packageName: always }) }, synchronizerId: { sometimes: true, alwaysUntil: '3.4.12' }, vettingValidAt: sometimes }),
    },
    answer: answer({ packageReferences: listOf(answer({ packageId: read, packageName: read, packageVersion: read })), synchronizerId: read }),
  },
  prepare: {
    body: { schema: 'JsPrepareSubmissionRequest', root: PREPARE_REQUEST },
    answer: answer({
      preparedTransaction: read,
      preparedTransactionHash: read,
      hashingSchemeVersion: read,
      // `decodeCostEstimation`.
      costEstimation: answer({ confirmationRequestTrafficCostEstimation: read, confirmationResponseTrafficCostEstimation: read, totalTrafficCostEstimation: read, estimationTimestamp: read }, { since: '3.4.0' }),
    }),
  },
  activeContracts: {
    query: LIST_QUERY,
    body: {
      schema: 'GetActiveContractsRequest',
      root: obj({ activeAtOffset: always, eventFormat: EVENT_FORMAT, verbose: { until: '3.4.12' }, streamContinuationToken: { sometimes: true, since: '3.5.0' }, includeIncompleteReassignments: INCOMPLETE_REASSIGNMENTS }),
    },
    answer: listOf(ACTIVE_CONTRACT_ELEMENT),
  },
  activeContractsPage: {
    body: { schema: 'GetActiveContractsPageRequest', root: obj({ activeAtOffset: sometimes, eventFormat: EVENT_FORMAT, maxPageSize: always, pageToken: sometimes, includeIncompleteReassignments: INCOMPLETE_REASSIGNMENTS }) },
    answer: answer({ activeContracts: listOf(ACTIVE_CONTRACT_ELEMENT), activeAtOffset: read, nextPageToken: read }),
  },
  listVettedPackages: { body: { schema: 'ListVettedPackagesRequest', root: LIST_VETTING }, answer: answer({ vettedPackages: listOf(VETTED_PACKAGES), nextPageToken: read }) },
  updateVettedPackages: { body: { schema: 'UpdateVettedPackagesRequest', root: UPDATE_VETTING }, answer: answer({ newVettedPackages: VETTED_PACKAGES, pastVettedPackages: VETTED_PACKAGES }) },
} as const satisfies Partial<Record<OperationName, CatalogueEntry>>;

/** An operation the client may send: the only ones its calls accept. */
export type CataloguedOperation = keyof typeof CATALOGUE;

/** Operations of the version table the client never sends (the demo participant serves them). */
export const UNSENT_OPERATIONS = ['party', 'users', 'listUpdatesFlats', 'submitAndWait'] as const satisfies readonly Exclude<OperationName, CataloguedOperation>[];

// Every operation of the version table is either in the catalogue or said to be unsent.
type Unlisted = Exclude<OperationName, CataloguedOperation | (typeof UNSENT_OPERATIONS)[number]>;
const everyOperationListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyOperationListed;

export function catalogueEntry(operation: CataloguedOperation): CatalogueEntry {
  return CATALOGUE[operation];
}

export function isCatalogued(operation: string): operation is CataloguedOperation {
  return Object.hasOwn(CATALOGUE, operation);
}

// ---------------------------------------------------------------- versions and positions

/** Whether a field of the catalogue belongs to a version. */
export function inRange(range: VersionRange, version: string): boolean {
  return (range.since === undefined || atLeast(version, range.since)) && (range.until === undefined || !atLeast(version, range.until));
}

/** Whether we send a field in every request at a version (else in some, or none). */
export function sentAlways(field: SentField, version: string): boolean {
  if (!inRange(field, version)) return false;
  if (field.alwaysUntil !== undefined && !atLeast(version, field.alwaysUntil)) return true;
  return !field.sometimes;
}

/** A position below another: `a.b`, list items `a[]`, map values `a.*`. */
export function childPath(parent: string, member: string): string {
  return parent === '' ? member : `${parent}.${member}`;
}

export interface RequestShapeOfBody {
  method: string;
  query?: Readonly<Record<string, unknown>>;
  body?: unknown;
}

/**
 * What a request sends that the catalogue does not declare for its operation (at any version): a
 * query parameter, a body position, or an enum value. Empty when the request is one of the catalogue's.
 */
export function undeclaredParts(operation: CataloguedOperation, request: RequestShapeOfBody): string[] {
  const entry = catalogueEntry(operation);
  const out: string[] = [];
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && !entry.query?.[name]) out.push(`query parameter ${name}`);
  }
  const body = request.body;
  if (body === undefined) return out;
  if (entry.body === undefined || entry.body === 'bytes') {
    out.push('a JSON body');
    return out;
  }
  const walk = (field: SentField, value: unknown, path: string) => {
    if (field.opaque || value === undefined || value === null) return;
    if (field.values && typeof value === 'string' && !field.values.includes(value)) out.push(`${path} = ${value}`);
    if (Array.isArray(value)) {
      if (field.items) value.forEach((item) => walk(field.items!, item, `${path}[]`));
      return;
    }
    if (typeof value !== 'object') return;
    for (const [name, member] of Object.entries(value as Record<string, unknown>)) {
      if (field.entries) walk(field.entries, member, childPath(path, '*'));
      else if (field.fields?.[name]) walk(field.fields[name], member, childPath(path, name));
      else if (member !== undefined) out.push(childPath(path, name));
    }
  };
  walk(entry.body.root, body, entry.body.schema);
  return out;
}
