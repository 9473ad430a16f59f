/**
 * The one table of what differs between the Canton releases a participant may run: which endpoints
 * exist (and so which form an operation takes), which request fields each release's decoder insists
 * on, and how its JSON differs. The client asks it before sending; the demo participant derives its
 * per-version behaviour from it; a test compares it with the official specs of every release line.
 *
 * A version is what `GET /v2/version` reports. Unknown or unparsable versions (snapshots, forks) are
 * treated as the newest release line we know, and the user is told so in one line (`unknownVersionNotice`).
 */

export type VersionTriple = readonly [number, number, number];

export function parseVersion(v: string): VersionTriple | undefined {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

const NEWEST: VersionTriple = [99, 0, 0];

function triple(v: string | VersionTriple): VersionTriple {
  return typeof v === 'string' ? (parseVersion(v) ?? NEWEST) : v;
}

export function atLeast(version: string | VersionTriple, since: string | VersionTriple): boolean {
  const v = triple(version);
  const s = triple(since);
  for (let i = 0; i < 3; i++) if (v[i] !== s[i]) return v[i] > s[i];
  return true;
}

/**
 * The release lines whose specs differ for a client. Each covers the versions from `from` up to the
 * next line; `spec` is the version its official spec describes (3.4.0–3.4.11 share the old, strict
 * 3.4 spec; 3.4.12 has the relaxed one).
 */
export const API_LINES = [
  { line: '3.3', from: '3.3.0', spec: '3.3.0' },
  { line: '3.4.11', from: '3.4.0', spec: '3.4.11' },
  { line: '3.4.12', from: '3.4.12', spec: '3.4.12' },
  { line: '3.5', from: '3.5.0', spec: '3.5.10' },
  { line: '3.6', from: '3.6.0', spec: '3.6.0' },
] as const;

export type ApiLine = (typeof API_LINES)[number]['line'];

/** The release line of a version; versions before 3.3 fall in 3.3, unknown ones in the newest. */
export function lineOf(version: string): ApiLine {
  let found: ApiLine = API_LINES[0].line;
  for (const l of API_LINES) if (atLeast(version, l.from)) found = l.line;
  return found;
}

/** The newest release line this table knows; a newer or unknown version is treated as it. */
export const NEWEST_LINE: ApiLine = API_LINES[API_LINES.length - 1].line;

/**
 * One line for the user when a participant reports a version this table does not know (a release
 * after the newest line, or a version that does not parse): it is treated as the newest line, and a
 * difference of a newer release may show as an error the table cannot explain. Undefined for a
 * known release line (a snapshot or patch of the newest line is known).
 */
export function unknownVersionNotice(version: string): string | undefined {
  const v = parseVersion(version);
  const newest = parseVersion(NEWEST_LINE)!;
  if (v && (v[0] < newest[0] || (v[0] === newest[0] && v[1] <= newest[1]))) return undefined;
  const what = v ? `Canton ${shortVersion(version)} is newer than the newest release this extension knows (${NEWEST_LINE})` : `Canton version "${version}" is not one this extension knows`;
  return `${what}: treated as ${NEWEST_LINE}.`;
}

/** "3.4.11-SNAPSHOT" → "3.4.11"; unparsable versions are shown as they are. */
export function shortVersion(version: string): string {
  const v = parseVersion(version);
  return v ? v.join('.') : version;
}

// ---------------------------------------------------------------- endpoints

export type HttpMethod = 'GET' | 'POST';

export interface Endpoint {
  method: HttpMethod;
  /** As the spec writes it, with `{name}` path parameters. */
  path: string;
  /** First version that has it (default: all). */
  since?: string;
  /** First version that no longer has it. */
  until?: string;
  /** Served by every version in range, but missing from the specs before this version. */
  documentedSince?: string;
  /**
   * A websocket channel (the asyncapi spec) rather than an HTTP operation (the openapi spec): opened
   * with a GET upgrade, the request sent as the first frame.
   */
  websocket?: true;
}

function ep(method: HttpMethod, path: string, range: Omit<Endpoint, 'method' | 'path'> = {}): Endpoint {
  return { method, path, ...range };
}

export function endpointExists(e: Endpoint, version: string): boolean {
  return (e.since === undefined || atLeast(version, e.since)) && (e.until === undefined || !atLeast(version, e.until));
}

/**
 * Every endpoint the client calls or the demo participant serves, and the versions that have it. An
 * operation with several entries takes the first one the version has (the newest form first).
 */
export const OPERATIONS = {
  livez: [ep('GET', '/livez', { documentedSince: '3.5.0' })],
  readyz: [ep('GET', '/readyz', { documentedSince: '3.5.0' })],
  version: [ep('GET', '/v2/version')],
  ledgerEnd: [ep('GET', '/v2/state/ledger-end')],
  prunedOffsets: [ep('GET', '/v2/state/latest-pruned-offsets')],
  connectedSynchronizers: [ep('GET', '/v2/state/connected-synchronizers')],
  participantId: [ep('GET', '/v2/parties/participant-id')],
  parties: [ep('GET', '/v2/parties')],
  allocateParty: [ep('POST', '/v2/parties')],
  party: [ep('GET', '/v2/parties/{party}')],
  users: [ep('GET', '/v2/users')],
  user: [ep('GET', '/v2/users/{user-id}')],
  userRights: [ep('GET', '/v2/users/{user-id}/rights')],
  authenticatedUser: [ep('GET', '/v2/authenticated-user', { since: '3.4.0' })],
  packages: [ep('GET', '/v2/packages')],
  packageArchive: [ep('GET', '/v2/packages/{package-id}')],
  packageStatus: [ep('GET', '/v2/packages/{package-id}/status')],
  // 3.4 added `/v2/dars` (and the vetAllPackages and synchronizerId parameters); `/v2/packages` stays as its alias.
  uploadDar: [ep('POST', '/v2/dars', { since: '3.4.0' }), ep('POST', '/v2/packages')],
  validateDar: [ep('POST', '/v2/dars/validate', { since: '3.4.0' })],
  // `/v2/updates` takes the same body in every version, and `/flats` is gone in 3.6: the client
  // always uses the former; the participant serves the alias where the release has it.
  listUpdates: [ep('POST', '/v2/updates')],
  listUpdatesFlats: [ep('POST', '/v2/updates/flats', { until: '3.6.0' })],
  updatesPage: [ep('POST', '/v2/updates/get-updates-page', { since: '3.5.1' })],
  // 3.6: an externally signed transaction by the hash its parties signed, and its command's completions.
  updateByHash: [ep('POST', '/v2/updates/update-by-hash', { since: '3.6.0' })],
  completionByHash: [ep('POST', '/v2/commands/completion-by-hash', { since: '3.6.0' })],
  // Command completions: the user's own (every release), or every user's for some or all parties (3.5.7).
  listCompletions: [ep('POST', '/v2/commands/completions')],
  listCommandCompletions: [ep('POST', '/v2/commands/command-completions', { since: '3.5.7' })],
  // The same GetUpdatesRequest as the list, as the first frame; each update then comes as a frame.
  subscribeUpdates: [ep('GET', '/v2/updates', { websocket: true })],
  submitAndWaitForTransaction: [ep('POST', '/v2/commands/submit-and-wait-for-transaction')],
  submitAndWait: [ep('POST', '/v2/commands/submit-and-wait')],
  eventsByContractId: [ep('POST', '/v2/events/events-by-contract-id')],
  updateById: [ep('POST', '/v2/updates/update-by-id')],
  updateByOffset: [ep('POST', '/v2/updates/update-by-offset')],
  prepare: [ep('POST', '/v2/interactive-submission/prepare')],
  // Canton's own answer to "which version of a package, for these parties, on every host": every
  // spec from 3.3 on has it (the 3.3.0 release's Java bindings did not yet; such a participant
  // answers 404, which the network model reads as "not available" and falls back from).
  preferredPackages: [ep('POST', '/v2/interactive-submission/preferred-packages')],
  activeContracts: [ep('POST', '/v2/state/active-contracts')],
  activeContractsPage: [ep('POST', '/v2/state/active-contracts-page', { since: '3.5.1' })],
  // 3.4.0–3.4.11 list with a GET that carries its request in the body, and update with a POST on the
  // same path; 3.4.12 added `/list` and `/update`; 3.6 dropped the old pair.
  listVettedPackages: [ep('POST', '/v2/package-vetting/list', { since: '3.4.12' }), ep('GET', '/v2/package-vetting', { since: '3.4.0', until: '3.6.0' })],
  updateVettedPackages: [ep('POST', '/v2/package-vetting/update', { since: '3.4.12' }), ep('POST', '/v2/package-vetting', { since: '3.4.0', until: '3.6.0' })],
} as const satisfies Record<string, readonly Endpoint[]>;

export type OperationName = keyof typeof OPERATIONS;

/** Names for people ("Package vetting update"), used in "not available" messages. */
export const OPERATION_TITLES: Record<OperationName, string> = {
  livez: 'Liveness check',
  readyz: 'Readiness check',
  version: 'Version',
  ledgerEnd: 'Ledger end',
  prunedOffsets: 'Pruned offsets',
  connectedSynchronizers: 'Connected synchronizers',
  participantId: 'Participant id',
  parties: 'Listing parties',
  allocateParty: 'Allocating a party',
  party: 'Party details',
  users: 'Listing users',
  user: 'User details',
  userRights: 'User rights',
  authenticatedUser: 'The authenticated user',
  packages: 'Listing packages',
  packageArchive: 'Downloading a package',
  packageStatus: 'Package status',
  uploadDar: 'Uploading a DAR',
  validateDar: 'Validating a DAR',
  listUpdates: 'Listing updates',
  listUpdatesFlats: 'Listing flat updates',
  updatesPage: 'Paged updates (get-updates-page)',
  updateByHash: 'Looking up an update by transaction hash',
  completionByHash: 'Looking up a completion by transaction hash',
  listCompletions: 'Command completions',
  listCommandCompletions: "Every user's command completions (command-completions)",
  subscribeUpdates: 'The update stream over a websocket',
  submitAndWaitForTransaction: 'Submitting commands',
  submitAndWait: 'Submitting commands',
  eventsByContractId: 'Events by contract id',
  updateById: 'Looking up an update by id',
  updateByOffset: 'Looking up an update by offset',
  prepare: 'Preview (interactive-submission prepare)',
  preferredPackages: 'Preferred packages (interactive-submission preferred-packages)',
  activeContracts: 'Active contracts',
  activeContractsPage: 'Paged active contracts (active-contracts-page)',
  listVettedPackages: 'Listing vetted packages',
  updateVettedPackages: 'Package vetting',
};

/** The endpoint a version offers for an operation, or undefined when it has none. */
export function endpointFor(operation: OperationName, version: string): Endpoint | undefined {
  return (OPERATIONS[operation] as readonly Endpoint[]).find((e) => endpointExists(e, version));
}

/** Every endpoint of the table, once. */
export function allEndpoints(): Endpoint[] {
  return Object.values(OPERATIONS).flat();
}

// ---------------------------------------------------------------- features and wire differences

export interface VersionFacts {
  /** The release line. */
  line: ApiLine;
  /** `descendingOrder` on update lists (3.5.1+). */
  descendingOrder: boolean;
  /** Template ids in filters must use the package-name form (3.5+; 3.4 only warned). */
  packageNameFiltersOnly: boolean;
  /** Unvetting a dependency of a still-vetted package needs no force flag (3.5.5+). */
  unvetDependenciesOfVetted: boolean;
  /** 3.3's events-by-contract-id takes `requestingParties` as well as `eventFormat`. */
  requestingParties: boolean;
  /** Prepare refuses more than one command by default (3.4+: `enforce-single-root-node`). */
  prepareSingleCommand: boolean;
  /**
   * The active-contracts list carries `streamContinuationToken` in its request and on each element
   * (3.5+): before, a list cannot be resumed, only cut with `limit` (the 3.3–3.4.12 specs have neither).
   */
  acsContinuationToken: boolean;
  /**
   * The deprecated top-level `filter`/`verbose` of update and active-contracts requests are taken
   * (until 3.6.0). Canton's release notes: refused from 3.6.1, removed in 3.7, whose JSON decoder also
   * refuses fields it does not know (digital-asset/canton UNRELEASED.md, "extra fields in JSON objects
   * are no longer tolerated"); a participant's own description decides at run time (compat checker).
   */
  topLevelFilterVerbose: boolean;
  wire: WireDialect;
}

/** How the JSON a release writes differs; decoders accept every dialect. */
export interface WireDialect {
  /** CreatedEvent `representativePackageId` and `acsDelta`, ExercisedEvent `acsDelta` (3.4+). */
  acsDeltaFields: boolean;
  /** CreatedEvent `contractKeyHash` (3.5+). */
  contractKeyHash: boolean;
  /** JsInterfaceView `implementationPackageId` (3.5+). */
  interfaceViewImplementationPackageId: boolean;
  /** `paidTrafficCost` on transactions and reassignments (3.4.12+). */
  paidTrafficCost: boolean;
  /** `transactionHash` on transactions (3.6). */
  transactionHash: boolean;
  /** 3.3 called the reassignment id `unassignId`. */
  reassignmentIdField: 'reassignmentId' | 'unassignId';
  /** JsReassignment `synchronizerId` (3.4+). */
  reassignmentSynchronizerId: boolean;
  /** 3.3 wrote the topology permission as an int. */
  permissionAsInt: boolean;
  /** 3.3's TopologyEvent is the variant itself; from 3.4 it sits under an `event` key. */
  topologyEventWrapped: boolean;
  /** User `primaryPartyAuthentication` (3.5+). */
  primaryPartyAuthentication: boolean;
  /** `/v2/version` `features.packageFeature` (3.4+). */
  packageFeature: boolean;
}

export function factsOf(version: string): VersionFacts {
  const since = (v: string) => atLeast(version, v);
  return {
    line: lineOf(version),
    descendingOrder: since('3.5.1'),
    packageNameFiltersOnly: since('3.5.0'),
    unvetDependenciesOfVetted: since('3.5.5'),
    requestingParties: !since('3.4.0'),
    prepareSingleCommand: since('3.4.0'),
    acsContinuationToken: since('3.5.0'),
    topLevelFilterVerbose: !since('3.6.1'),
    wire: {
      acsDeltaFields: since('3.4.0'),
      contractKeyHash: since('3.5.0'),
      interfaceViewImplementationPackageId: since('3.5.0'),
      paidTrafficCost: since('3.4.12'),
      transactionHash: since('3.6.0'),
      reassignmentIdField: since('3.4.0') ? 'reassignmentId' : 'unassignId',
      reassignmentSynchronizerId: since('3.4.0'),
      permissionAsInt: !since('3.4.0'),
      topologyEventWrapped: since('3.4.0'),
      primaryPartyAuthentication: since('3.5.0'),
      packageFeature: since('3.4.0'),
    },
  };
}

/** What a participant of this version offers: its facts, and which operations it has. */
export interface ParticipantCapabilities extends VersionFacts {
  /** As the participant reported it. */
  version: string;
  /** Set when the version is newer than (or unknown to) the table: see {@link unknownVersionNotice}. */
  notice?: string;
  /** The endpoint the version offers for an operation, or undefined. */
  endpoint(operation: OperationName): Endpoint | undefined;
  has(operation: OperationName): boolean;
}

export function capabilitiesOf(version: string): ParticipantCapabilities {
  return {
    ...factsOf(version),
    version,
    notice: unknownVersionNotice(version),
    endpoint: (operation) => endpointFor(operation, version),
    has: (operation) => endpointFor(operation, version) !== undefined,
  };
}

// ---------------------------------------------------------------- required request fields

/**
 * Which fields a release's request decoder insists on, as steps: from each version on, these (until
 * the next step). The 3.3 and 3.4.0–3.4.11 decoders require more than the server needs (their specs
 * mark proto3 defaults required); from 3.4.12 only what is really needed is required.
 */
export type RequiredSteps = ReadonlyArray<readonly [since: string, fields: readonly string[]]>;

/** The required fields of one object in a request body and of the objects below it. */
export interface RequestShape {
  /** As the release's spec says. */
  required?: RequiredSteps;
  /** Of those, the fields the release's server does not insist on after all. */
  lenient?: RequiredSteps;
  /** Members by name; for a variant (oneOf), its cases by name. */
  fields?: Readonly<Record<string, RequestShape>>;
  /** Array items. */
  items?: RequestShape;
  /** Map values (`filtersByParty`). */
  values?: RequestShape;
}

const STRICT_UNTIL_3_4_12 = (fields: readonly string[], after: readonly string[] = []): RequiredSteps => [
  ['3.3.0', fields],
  ['3.4.12', after],
];
const VALUE_CASE = (value: RequestShape): RequestShape => ({ required: [['3.3.0', ['value']]], fields: { value } });

const FILTERS: RequestShape = {
  fields: {
    cumulative: {
      items: {
        required: STRICT_UNTIL_3_4_12(['identifierFilter']),
        fields: {
          identifierFilter: {
            fields: {
              WildcardFilter: VALUE_CASE({ required: STRICT_UNTIL_3_4_12(['includeCreatedEventBlob']) }),
              TemplateFilter: VALUE_CASE({ required: STRICT_UNTIL_3_4_12(['includeCreatedEventBlob'], ['templateId']) }),
              InterfaceFilter: VALUE_CASE({ required: STRICT_UNTIL_3_4_12(['includeCreatedEventBlob', 'includeInterfaceView'], ['interfaceId']) }),
            },
          },
        },
      },
    },
  },
};
const PARTY_FILTERS = { filtersByParty: { values: FILTERS }, filtersForAnyParty: FILTERS };
const EVENT_FORMAT: RequestShape = { required: STRICT_UNTIL_3_4_12(['filtersByParty', 'verbose']), fields: PARTY_FILTERS };
const TRANSACTION_FORMAT: RequestShape = {
  required: STRICT_UNTIL_3_4_12(['transactionShape'], ['eventFormat', 'transactionShape']),
  fields: { eventFormat: EVENT_FORMAT },
};
const UPDATE_FORMAT: RequestShape = { fields: { includeTransactions: TRANSACTION_FORMAT, includeReassignments: EVENT_FORMAT } };
const DURATION: RequestShape = { required: [['3.3.0', ['nanos', 'seconds']]], fields: { unknownFields: { required: [['3.3.0', ['fields']]] } } };
const JS_COMMANDS: RequestShape = {
  required: STRICT_UNTIL_3_4_12(['commandId'], ['actAs', 'commandId', 'commands']),
  fields: {
    commands: {
      items: {
        fields: {
          CreateCommand: { required: [['3.3.0', ['createArguments', 'templateId']]] },
          ExerciseCommand: { required: [['3.3.0', ['choice', 'choiceArgument', 'contractId', 'templateId']]] },
          CreateAndExerciseCommand: { required: [['3.3.0', ['choice', 'choiceArgument', 'createArguments', 'templateId']]] },
          ExerciseByKeyCommand: { required: [['3.3.0', ['choice', 'choiceArgument', 'contractKey', 'templateId']]] },
        },
      },
    },
    deduplicationPeriod: { fields: { DeduplicationDuration: VALUE_CASE(DURATION), DeduplicationOffset: { required: [['3.3.0', ['value']]] } } },
    minLedgerTimeRel: DURATION,
    disclosedContracts: { items: { required: STRICT_UNTIL_3_4_12(['contractId', 'createdEventBlob', 'synchronizerId'], ['createdEventBlob']) } },
    prefetchContractKeys: { items: { required: [['3.3.0', []], ['3.4.0', ['contractKey']], ['3.4.12', ['contractKey', 'templateId']]] } },
  },
};
const MIN_LEDGER_TIME: RequestShape = {
  required: STRICT_UNTIL_3_4_12(['time']),
  fields: { time: { fields: { MinLedgerTimeAbs: { required: [['3.3.0', ['value']]] }, MinLedgerTimeRel: VALUE_CASE(DURATION) } } },
};
const PREPARE_REQUEST: RequestShape = {
  required: [['3.3.0', ['commandId', 'synchronizerId', 'userId', 'verboseHashing']], ['3.4.12', ['actAs', 'commandId', 'commands']]],
  fields: {
    commands: JS_COMMANDS.fields!.commands,
    minLedgerTime: MIN_LEDGER_TIME,
    disclosedContracts: JS_COMMANDS.fields!.disclosedContracts,
    prefetchContractKeys: JS_COMMANDS.fields!.prefetchContractKeys,
    estimateTrafficCost: { required: [['3.3.0', []], ['3.4.0', ['disabled']], ['3.4.12', []]] },
  },
};
const PREFERRED_PACKAGES_REQUEST: RequestShape = {
  required: [['3.3.0', ['synchronizerId']], ['3.4.12', ['packageVettingRequirements']]],
  fields: { packageVettingRequirements: { items: { required: [['3.3.0', ['packageName']], ['3.4.12', ['packageName', 'parties']]] } } },
};
const PACKAGE_REFS: RequestShape = { fields: { packages: { items: { required: [['3.3.0', []], ['3.4.0', ['packageId', 'packageName', 'packageVersion']], ['3.4.12', []]] } } } };
const VETTING_CHANGE_VALUE: RequestShape = { ...PACKAGE_REFS, required: [['3.3.0', []], ['3.5.0', ['packages']]] };

/** The request bodies the client sends or the demo participant decodes, by their spec schema name. */
export const REQUEST_SHAPES = {
  GetUpdatesRequest: {
    required: [['3.3.0', ['beginExclusive', 'verbose']], ['3.4.12', ['updateFormat']], ['3.5.0', ['beginExclusive']]],
    // The 3.4.12 spec requires updateFormat, yet its server still takes the deprecated filter/verbose form.
    lenient: [['3.4.12', ['updateFormat']], ['3.5.0', []]],
    fields: { updateFormat: UPDATE_FORMAT, filter: { required: STRICT_UNTIL_3_4_12(['filtersByParty']), fields: PARTY_FILTERS } },
  },
  GetUpdatesPageRequest: { required: [['3.5.0', ['updateFormat']]], fields: { updateFormat: UPDATE_FORMAT } },
  GetUpdateByHashRequest: { required: [['3.6.0', ['transactionHash', 'updateFormat']]], fields: { updateFormat: UPDATE_FORMAT } },
  GetCompletionByHashRequest: { required: [['3.6.0', ['transactionHash']]] },
  CompletionStreamRequest: { required: [['3.3.0', ['userId', 'beginExclusive']], ['3.4.12', ['parties']]] },
  GetCompletionsRequest: { required: [['3.5.7', []]] },
  GetActiveContractsRequest: {
    required: [['3.3.0', ['activeAtOffset', 'verbose']], ['3.4.12', ['activeAtOffset', 'eventFormat']], ['3.5.0', ['activeAtOffset']]],
    fields: { eventFormat: EVENT_FORMAT, filter: { required: STRICT_UNTIL_3_4_12(['filtersByParty']), fields: PARTY_FILTERS } },
  },
  GetActiveContractsPageRequest: { required: [['3.5.0', ['eventFormat']]], fields: { eventFormat: EVENT_FORMAT } },
  JsPrepareSubmissionRequest: PREPARE_REQUEST,
  GetPreferredPackagesRequest: PREFERRED_PACKAGES_REQUEST,
  JsCommands: JS_COMMANDS,
  JsSubmitAndWaitForTransactionRequest: { required: [['3.3.0', ['commands']]], fields: { commands: JS_COMMANDS, transactionFormat: TRANSACTION_FORMAT } },
  GetUpdateByIdRequest: { required: STRICT_UNTIL_3_4_12(['updateId'], ['updateFormat', 'updateId']), fields: { updateFormat: UPDATE_FORMAT } },
  GetUpdateByOffsetRequest: { required: STRICT_UNTIL_3_4_12(['offset'], ['offset', 'updateFormat']), fields: { updateFormat: UPDATE_FORMAT } },
  GetEventsByContractIdRequest: { required: STRICT_UNTIL_3_4_12(['contractId'], ['contractId', 'eventFormat']), fields: { eventFormat: EVENT_FORMAT } },
  ListVettedPackagesRequest: { required: [['3.4.0', ['pageSize', 'pageToken']], ['3.4.12', []]] },
  UpdateVettedPackagesRequest: {
    required: [['3.4.0', ['dryRun', 'synchronizerId']], ['3.4.12', ['changes']]],
    fields: {
      changes: {
        items: {
          required: [['3.4.0', ['operation']], ['3.4.12', []]],
          fields: { operation: { fields: { Vet: VALUE_CASE(VETTING_CHANGE_VALUE), Unvet: VALUE_CASE(VETTING_CHANGE_VALUE) } } },
        },
      },
      expectedTopologySerial: { required: [['3.4.0', ['serial']], ['3.4.12', []]], fields: { serial: { fields: { Prior: { required: [['3.4.0', ['value']]] } } } } },
    },
  },
  AllocatePartyRequest: {
    required: [['3.3.0', ['identityProviderId', 'partyIdHint']], ['3.4.0', ['identityProviderId', 'partyIdHint', 'synchronizerId', 'userId']], ['3.4.12', []]],
    fields: { localMetadata: { required: STRICT_UNTIL_3_4_12(['annotations', 'resourceVersion']) } },
  },
} as const satisfies Record<string, RequestShape>;

export type RequestSchemaName = keyof typeof REQUEST_SHAPES;

/** The fields required at `version` by one step list. */
export function requiredAt(steps: RequiredSteps | undefined, version: string): readonly string[] {
  let fields: readonly string[] = [];
  for (const [since, f] of steps ?? []) if (atLeast(version, since)) fields = f;
  return fields;
}

/**
 * Every object position of a request shape with what it requires at `version`, keyed by position
 * (`GetUpdatesRequest.updateFormat.includeTransactions`, `[]` for array items, `*` for map values).
 * Positions that require nothing are left out.
 */
export function requiredFieldsByPath(schema: RequestSchemaName, version: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (shape: RequestShape, path: string) => {
    const required = requiredAt(shape.required, version);
    if (required.length > 0) out.set(path, [...required].sort());
    for (const [name, member] of Object.entries(shape.fields ?? {})) walk(member, `${path}.${name}`);
    if (shape.items) walk(shape.items, `${path}[]`);
    if (shape.values) walk(shape.values, `${path}.*`);
  };
  walk(REQUEST_SHAPES[schema], schema);
  return out;
}

export interface MissingField {
  /** Where the object is, as circe reports it: `.updateFormat.includeTransactions`. */
  path: string;
  field: string;
}

/** The first required field a body lacks at `version` (null counts as absent), if any. */
export function firstMissingField(schema: RequestSchemaName, body: unknown, version: string): MissingField | undefined {
  const visit = (shape: RequestShape, value: unknown, path: string): MissingField | undefined => {
    if (Array.isArray(value)) return shape.items ? first(value, (item, i) => visit(shape.items!, item, `${path}[${i}]`)) : undefined;
    if (typeof value !== 'object' || value === null) return undefined;
    const json = value as Record<string, unknown>;
    const lenient = requiredAt(shape.lenient, version);
    for (const field of requiredAt(shape.required, version).filter((f) => !lenient.includes(f))) {
      if (json[field] === undefined || json[field] === null) return { path, field };
    }
    if (shape.values) {
      const found = first(Object.entries(json), ([key, member]) => visit(shape.values!, member, `${path}.${key}`));
      if (found) return found;
    }
    return first(Object.entries(shape.fields ?? {}), ([name, member]) => (json[name] === undefined ? undefined : visit(member, json[name], `${path}.${name}`)));
  };
  return visit(REQUEST_SHAPES[schema], body, '');
}

function first<T, R>(items: readonly T[], f: (item: T, index: number) => R | undefined): R | undefined {
  for (let i = 0; i < items.length; i++) {
    const r = f(items[i], i);
    if (r !== undefined) return r;
  }
  return undefined;
}
