/**
 * The JSON Ledger API v2 as it travels over HTTP (3.3 … 3.6), see `canton-api/NOTES.md`.
 *
 * These types describe what the server writes and reads, not what we would like it to:
 * optional fields may be missing, `null`, `""` or `[]` (all meaning "absent"), int64 values are
 * JSON numbers, and Daml values (payloads) are opaque JSON with Int64/Numeric as strings.
 * Variants are single-key objects; some cases carry an extra `{ value: … }` level (§1.4).
 * Decoders in `./updates.ts` and friends turn these into the normalised model types.
 */

/** Absent on the wire may be missing, `null`, or an empty string/list. */
export type Opt<T> = T | null | undefined;

/** A Daml-LF JSON value (record, list, text, numeric-as-string, …). */
export type DamlValue = unknown;

/** ISO-8601 UTC timestamp as written by Java's `Instant.toString`. */
export type Timestamp = string;

export interface Duration {
  seconds: number;
  nanos?: number;
}

// ---------------------------------------------------------------- filters and formats

export interface WildcardFilterValue {
  includeCreatedEventBlob?: boolean;
}
export interface TemplateFilterValue {
  templateId: string;
  includeCreatedEventBlob?: boolean;
}
export interface InterfaceFilterValue {
  interfaceId: string;
  includeInterfaceView?: boolean;
  includeCreatedEventBlob?: boolean;
}
export type IdentifierFilter =
  | { WildcardFilter: { value: WildcardFilterValue } }
  | { TemplateFilter: { value: TemplateFilterValue } }
  | { InterfaceFilter: { value: InterfaceFilterValue } }
  | { Empty: Record<string, never> };

export interface CumulativeFilter {
  identifierFilter?: IdentifierFilter;
}
export interface Filters {
  cumulative?: CumulativeFilter[];
}
export interface EventFormat {
  filtersByParty?: Record<string, Filters>;
  filtersForAnyParty?: Filters;
  verbose?: boolean;
}
export type TransactionShape = 'TRANSACTION_SHAPE_ACS_DELTA' | 'TRANSACTION_SHAPE_LEDGER_EFFECTS';
export interface TransactionFormat {
  eventFormat: EventFormat;
  transactionShape: TransactionShape;
}
export interface TopologyFormat {
  includeParticipantAuthorizationEvents?: { parties?: string[] };
}
export interface UpdateFormat {
  includeTransactions?: TransactionFormat;
  includeReassignments?: EventFormat;
  includeTopologyEvents?: TopologyFormat;
}
/** Deprecated legacy filter of GetUpdatesRequest (`filter` + `verbose`). */
export interface LegacyTransactionFilter {
  filtersByParty?: Record<string, Filters>;
  filtersForAnyParty?: Filters;
}

// ---------------------------------------------------------------- updates

export interface GetUpdatesRequest {
  beginExclusive: number;
  endInclusive?: number;
  updateFormat?: UpdateFormat;
  descendingOrder?: boolean;
  /** @deprecated legacy form; never together with `updateFormat`. */
  filter?: LegacyTransactionFilter;
  /** @deprecated legacy form; never together with `updateFormat`. */
  verbose?: boolean;
}

export interface GetUpdateByIdRequest {
  updateId: string;
  updateFormat: UpdateFormat;
}
export interface GetUpdateByOffsetRequest {
  offset: number;
  updateFormat: UpdateFormat;
}
export interface GetUpdatesPageRequest {
  updateFormat: UpdateFormat;
  beginOffsetExclusive?: number;
  endOffsetInclusive?: number;
  maxPageSize?: number;
  descendingOrder?: boolean;
  pageToken?: string;
}
export interface JsGetUpdatesPageResponse {
  updates?: JsGetUpdatesResponse[];
  lowestPageOffsetExclusive: number;
  highestPageOffsetInclusive: number;
  nextPageToken?: Opt<string>;
}

export interface TraceContext {
  traceparent?: Opt<string>;
  tracestate?: Opt<string>;
}

export interface JsInterfaceView {
  interfaceId: string;
  viewStatus: { code: number; message: string; details?: Opt<unknown[]> };
  viewValue?: Opt<DamlValue>;
  implementationPackageId?: Opt<string>;
}

export interface CreatedEvent {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  contractKey?: Opt<DamlValue>;
  contractKeyHash?: Opt<string>;
  createArgument?: Opt<DamlValue>;
  createdEventBlob?: Opt<string>;
  interfaceViews?: Opt<JsInterfaceView[]>;
  witnessParties?: Opt<string[]>;
  signatories?: Opt<string[]>;
  observers?: Opt<string[]>;
  createdAt: Timestamp;
  packageName: string;
  representativePackageId?: Opt<string>;
  acsDelta?: Opt<boolean>;
}
export interface ArchivedEvent {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  witnessParties?: Opt<string[]>;
  packageName: string;
  implementedInterfaces?: Opt<string[]>;
}
export interface ExercisedEvent {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  interfaceId?: Opt<string>;
  choice: string;
  choiceArgument?: Opt<DamlValue>;
  actingParties?: Opt<string[]>;
  consuming: boolean;
  witnessParties?: Opt<string[]>;
  lastDescendantNodeId: number;
  exerciseResult?: Opt<DamlValue>;
  packageName: string;
  implementedInterfaces?: Opt<string[]>;
  acsDelta?: Opt<boolean>;
}
/** Transaction events carry no `value` wrapper. */
export type Event =
  | { CreatedEvent: CreatedEvent }
  | { ArchivedEvent: ArchivedEvent }
  | { ExercisedEvent: ExercisedEvent };

export interface JsTransaction {
  updateId: string;
  commandId?: Opt<string>;
  workflowId?: Opt<string>;
  effectiveAt: Timestamp;
  events?: Opt<Event[]>;
  offset: number;
  synchronizerId: string;
  traceContext?: Opt<TraceContext>;
  recordTime: Timestamp;
  externalTransactionHash?: Opt<string>;
  paidTrafficCost?: Opt<number>;
  transactionHash?: Opt<string>;
}

export interface JsAssignmentEvent {
  source: string;
  target: string;
  /** 3.4+; 3.3 called it `unassignId`. */
  reassignmentId?: Opt<string>;
  unassignId?: Opt<string>;
  submitter?: Opt<string>;
  reassignmentCounter: number;
  createdEvent: CreatedEvent;
}
export interface UnassignedEvent {
  reassignmentId?: Opt<string>;
  unassignId?: Opt<string>;
  contractId: string;
  templateId: string;
  source: string;
  target: string;
  submitter?: Opt<string>;
  reassignmentCounter: number;
  assignmentExclusivity?: Opt<Timestamp>;
  witnessParties?: Opt<string[]>;
  packageName: string;
  offset: number;
  nodeId: number;
}
/** Assigned events are bare; unassigned events are wrapped in `value`. */
export type JsReassignmentEvent =
  | { JsAssignmentEvent: JsAssignmentEvent }
  | { JsUnassignedEvent: { value: UnassignedEvent } };

export interface JsReassignment {
  updateId: string;
  commandId?: Opt<string>;
  workflowId?: Opt<string>;
  offset: number;
  events?: Opt<JsReassignmentEvent[]>;
  traceContext?: Opt<TraceContext>;
  recordTime: Timestamp;
  synchronizerId?: Opt<string>;
  paidTrafficCost?: Opt<number>;
}

export type ParticipantPermission =
  | 'PARTICIPANT_PERMISSION_SUBMISSION'
  | 'PARTICIPANT_PERMISSION_CONFIRMATION'
  | 'PARTICIPANT_PERMISSION_OBSERVATION'
  | 'PARTICIPANT_PERMISSION_UNSPECIFIED';

export interface ParticipantAuthorizationValue {
  partyId: string;
  participantId: string;
  /** Absent for `…Revoked`; an int on 3.3. */
  participantPermission?: Opt<ParticipantPermission | number>;
}
/** Note the extra `event` key around the variant. */
/** 3.4+: the variant under an `event` key, each case `value`-wrapped. */
export interface WrappedTopologyEvent {
  event?: Opt<
    | { ParticipantAuthorizationAdded: { value: ParticipantAuthorizationValue } }
    | { ParticipantAuthorizationChanged: { value: ParticipantAuthorizationValue } }
    | { ParticipantAuthorizationRevoked: { value: ParticipantAuthorizationValue } }
    | { ParticipantAuthorizationOnboarding: { value: ParticipantAuthorizationValue } }
    | { Empty: Record<string, never> }
  >;
}
/** 3.3: the event is the variant itself, its cases unwrapped. */
export type BareTopologyEvent =
  | { ParticipantAuthorizationAdded: ParticipantAuthorizationValue }
  | { ParticipantAuthorizationChanged: ParticipantAuthorizationValue }
  | { ParticipantAuthorizationRevoked: ParticipantAuthorizationValue };
export type TopologyEvent = WrappedTopologyEvent | BareTopologyEvent;
export interface JsTopologyTransaction {
  updateId: string;
  offset: number;
  synchronizerId: string;
  recordTime: Timestamp;
  events?: Opt<TopologyEvent[]>;
  traceContext?: Opt<TraceContext>;
}

export interface SynchronizerTime {
  synchronizerId: string;
  recordTime: Timestamp;
}
export interface OffsetCheckpoint {
  offset: number;
  synchronizerTimes?: Opt<SynchronizerTime[]>;
}

/** Every Update case is wrapped in `value`. */
export type Update =
  | { Transaction: { value: JsTransaction } }
  | { Reassignment: { value: JsReassignment } }
  | { TopologyTransaction: { value: JsTopologyTransaction } }
  | { OffsetCheckpoint: { value: OffsetCheckpoint } };

export interface JsGetUpdatesResponse {
  update?: Opt<Update>;
}

// ---------------------------------------------------------------- commands

export interface CreateCommand {
  templateId: string;
  createArguments: DamlValue;
}
export interface ExerciseCommand {
  templateId: string;
  contractId: string;
  choice: string;
  choiceArgument: DamlValue;
}
export interface CreateAndExerciseCommand {
  templateId: string;
  createArguments: DamlValue;
  choice: string;
  choiceArgument: DamlValue;
}
export interface ExerciseByKeyCommand {
  templateId: string;
  contractKey: DamlValue;
  choice: string;
  choiceArgument: DamlValue;
}
/** Commands carry no `value` wrapper. */
export type Command =
  | { CreateCommand: CreateCommand }
  | { ExerciseCommand: ExerciseCommand }
  | { CreateAndExerciseCommand: CreateAndExerciseCommand }
  | { ExerciseByKeyCommand: ExerciseByKeyCommand };

export type DeduplicationPeriod =
  | { DeduplicationDuration: { value: Duration } }
  | { DeduplicationOffset: { value: number } }
  | { Empty: Record<string, never> };

export interface DisclosedContract {
  createdEventBlob: string;
  templateId?: string;
  contractId?: string;
  synchronizerId?: string;
}
export interface PrefetchContractKey {
  templateId: string;
  contractKey: DamlValue;
  limit?: number;
}

export interface JsCommands {
  commands: Command[];
  commandId: string;
  actAs: string[];
  userId?: string;
  readAs?: string[];
  workflowId?: string;
  deduplicationPeriod?: DeduplicationPeriod;
  minLedgerTimeAbs?: Timestamp;
  minLedgerTimeRel?: Duration;
  submissionId?: string;
  disclosedContracts?: DisclosedContract[];
  synchronizerId?: string;
  packageIdSelectionPreference?: string[];
  prefetchContractKeys?: PrefetchContractKey[];
  tapsMaxPasses?: number;
}
export interface JsSubmitAndWaitForTransactionRequest {
  commands: JsCommands;
  transactionFormat?: TransactionFormat;
}
export interface JsSubmitAndWaitForTransactionResponse {
  transaction: JsTransaction;
}

// ---------------------------------------------------------------- active contracts

export interface GetActiveContractsRequest {
  activeAtOffset: number;
  eventFormat?: EventFormat;
  verbose?: boolean;
  streamContinuationToken?: string;
}
export interface GetActiveContractsPageRequest {
  activeAtOffset?: number;
  eventFormat: EventFormat;
  maxPageSize?: number;
  pageToken?: string;
}
export interface JsActiveContract {
  createdEvent: CreatedEvent;
  synchronizerId: string;
  reassignmentCounter: number;
}
/** Incomplete (un)assignments are other cases of the variant; this client shows active contracts only. */
export type JsContractEntry = { JsActiveContract: JsActiveContract } | { [other: string]: unknown };
export interface JsGetActiveContractsResponse {
  contractEntry?: JsContractEntry | null;
  workflowId?: string;
  streamContinuationToken?: string;
}
export interface JsGetActiveContractsPageResponse {
  activeAtOffset: number;
  activeContracts: JsGetActiveContractsResponse[];
  nextPageToken?: string;
}

// ---------------------------------------------------------------- interactive submission (prepare)

export type MinLedgerTime = { time: { MinLedgerTimeAbs: { value: Timestamp } } | { MinLedgerTimeRel: { value: Duration } } };
export type HashingSchemeVersion = 'HASHING_SCHEME_VERSION_UNSPECIFIED' | 'HASHING_SCHEME_VERSION_V2' | 'HASHING_SCHEME_VERSION_V3';
export interface JsPrepareSubmissionRequest {
  userId?: string;
  commandId: string;
  commands: Command[];
  minLedgerTime?: MinLedgerTime;
  actAs: string[];
  readAs?: string[];
  disclosedContracts?: DisclosedContract[];
  synchronizerId?: string;
  packageIdSelectionPreference?: string[];
  verboseHashing?: boolean;
  prefetchContractKeys?: PrefetchContractKey[];
  maxRecordTime?: Timestamp;
  estimateTrafficCost?: { disabled?: boolean; expectedSignatures?: string[] };
  hashingSchemeVersion?: HashingSchemeVersion;
  tapsMaxPasses?: number;
}
export interface CostEstimation {
  confirmationRequestTrafficCostEstimation: number;
  confirmationResponseTrafficCostEstimation: number;
  totalTrafficCostEstimation: number;
  estimationTimestamp: Timestamp;
}
export interface JsPrepareSubmissionResponse {
  /** Base64 of the `PreparedTransaction` protobuf. */
  preparedTransaction: string;
  /** Base64 of the hash bytes. */
  preparedTransactionHash: string;
  hashingSchemeVersion: HashingSchemeVersion;
  hashingDetails?: string | null;
  costEstimation?: CostEstimation | null;
}

// ---------------------------------------------------------------- look-ups by transaction hash (3.6+)

/** `POST /v2/updates/update-by-hash`: the hash is proto bytes, so base64 in JSON. */
export interface GetUpdateByHashRequest {
  transactionHash: string;
  updateFormat: UpdateFormat;
}
/** The answer of a look-up of one update: the same shape as an element of the updates list. */
export type JsGetUpdateResponse = JsGetUpdatesResponse;
/** `POST /v2/commands/completion-by-hash`. */
export interface GetCompletionByHashRequest {
  transactionHash: string;
}
export interface GetCompletionByHashResponse {
  acceptedCompletion?: Opt<Completion>;
  lastRejectedCompletions?: Opt<Completion[]>;
}
export interface JsStatus {
  code: number;
  message: string;
  details?: Opt<unknown[]>;
}
export interface Completion {
  commandId: string;
  status?: Opt<JsStatus>;
  updateId?: Opt<string>;
  userId: string;
  actAs: string[];
  submissionId?: Opt<string>;
  offset: number;
  synchronizerTime?: Opt<{ synchronizerId: string; recordTime: Timestamp }>;
  paidTrafficCost?: Opt<number>;
  transactionHash?: Opt<string>;
}

/** `POST /v2/commands/completions`: one user's completions for some of its parties. */
export interface CompletionStreamRequest {
  userId?: string;
  parties: string[];
  beginExclusive?: number;
}
/** `POST /v2/commands/command-completions` (3.5.7+): every user's, for some parties (none: any party). */
export interface GetCompletionsRequest {
  parties?: string[];
  beginExclusive?: number;
}
/** One element of a completions list: a completion, or an offset checkpoint. */
export interface CompletionStreamResponse {
  completionResponse?: Opt<{ Completion?: { value: Completion }; OffsetCheckpoint?: { value: OffsetCheckpoint }; Empty?: unknown }>;
}

// ---------------------------------------------------------------- events by contract id

export interface GetEventsByContractIdRequest {
  contractId: string;
  eventFormat: EventFormat;
}
export interface JsGetEventsByContractIdResponse {
  created?: Opt<{ createdEvent: CreatedEvent; synchronizerId: string }>;
  archived?: Opt<{ archivedEvent: ArchivedEvent; synchronizerId: string }>;
}

// ---------------------------------------------------------------- package vetting

export interface VettedPackagesRef {
  packageId?: string;
  packageName?: string;
  packageVersion?: string;
}
export type VettedPackagesOperation =
  | { Vet: { value: { packages: VettedPackagesRef[]; newValidFromInclusive?: Timestamp; newValidUntilExclusive?: Timestamp } } }
  | { Unvet: { value: { packages: VettedPackagesRef[] } } }
  | { Empty: Record<string, never> };
export interface VettedPackagesChange {
  operation?: VettedPackagesOperation;
}
export interface PriorTopologySerial {
  serial?: { Prior: { value: number } } | { NoPrior: Record<string, never> } | { Empty: Record<string, never> };
}
export type UpdateVettedPackagesForceFlag =
  | 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES'
  | 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';
export interface UpdateVettedPackagesRequest {
  changes: VettedPackagesChange[];
  dryRun?: boolean;
  synchronizerId?: string;
  expectedTopologySerial?: PriorTopologySerial;
  updateVettedPackagesForceFlags?: UpdateVettedPackagesForceFlag[];
}
export interface VettedPackage {
  packageId: string;
  validFromInclusive?: Opt<Timestamp>;
  validUntilExclusive?: Opt<Timestamp>;
  packageName?: Opt<string>;
  packageVersion?: Opt<string>;
}
export interface VettedPackages {
  packages?: Opt<VettedPackage[]>;
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
}
export interface UpdateVettedPackagesResponse {
  pastVettedPackages?: Opt<VettedPackages>;
  newVettedPackages: VettedPackages;
}
export interface ListVettedPackagesRequest {
  packageMetadataFilter?: { packageIds?: string[]; packageNamePrefixes?: string[] };
  topologyStateFilter?: { participantIds?: string[]; synchronizerIds?: string[] };
  pageToken?: string;
  pageSize?: number;
}
export interface ListVettedPackagesResponse {
  vettedPackages?: Opt<VettedPackages[]>;
  nextPageToken?: Opt<string>;
}

// ---------------------------------------------------------------- supporting endpoints

export interface GetLedgerApiVersionResponse {
  version: string;
  features?: Opt<{
    experimental?: Opt<Record<string, unknown>>;
    userManagement?: Opt<{ supported?: boolean; maxRightsPerUser?: number; maxUsersPageSize?: number }>;
    partyManagement?: Opt<{ maxPartiesPageSize?: number }>;
    offsetCheckpoint?: Opt<{ maxOffsetCheckpointEmissionDelay?: Duration }>;
    packageFeature?: Opt<{ maxVettedPackagesPageSize?: number }>;
  }>;
}
export interface GetLedgerEndResponse {
  offset?: Opt<number>;
}
export interface GetLatestPrunedOffsetsResponse {
  participantPrunedUpToInclusive?: Opt<number>;
  allDivulgedContractsPrunedUpToInclusive?: Opt<number>;
}
export interface ConnectedSynchronizer {
  synchronizerAlias: string;
  synchronizerId: string;
  permission?: Opt<ParticipantPermission>;
}
export interface GetConnectedSynchronizersResponse {
  connectedSynchronizers?: Opt<ConnectedSynchronizer[]>;
}
/** One package name and the parties whose every host must have vetted the version chosen. */
export interface PackageVettingRequirement {
  parties: string[];
  packageName: string;
}
export interface GetPreferredPackagesRequest {
  packageVettingRequirements: PackageVettingRequirement[];
  /** Before 3.4.12 the decoder insists on it; empty means every connected synchronizer. */
  synchronizerId?: string;
  vettingValidAt?: Timestamp;
}
export interface PackageReference {
  packageId: string;
  packageName: string;
  packageVersion: string;
}
export interface GetPreferredPackagesResponse {
  packageReferences: PackageReference[];
  synchronizerId: string;
}
export interface PartyDetails {
  party: string;
  isLocal?: Opt<boolean>;
  localMetadata?: Opt<{ resourceVersion?: string; annotations?: Record<string, string> }>;
  identityProviderId?: Opt<string>;
}
export interface ListKnownPartiesResponse {
  partyDetails?: Opt<PartyDetails[]>;
  nextPageToken?: Opt<string>;
}
export interface GetParticipantIdResponse {
  participantId: string;
}
export interface User {
  id: string;
  primaryParty?: Opt<string>;
  isDeactivated?: Opt<boolean>;
  metadata?: Opt<{ resourceVersion?: string; annotations?: Record<string, string> }>;
  identityProviderId?: Opt<string>;
}
export interface GetUserResponse {
  user: User;
}
export type RightKind =
  | { CanActAs: { value: { party: string } } }
  | { CanReadAs: { value: { party: string } } }
  | { CanExecuteAs: { value: { party: string } } }
  | { ParticipantAdmin: { value: Record<string, never> } }
  | { IdentityProviderAdmin: { value: Record<string, never> } }
  | { CanReadAsAnyParty: { value: Record<string, never> } }
  | { CanExecuteAsAnyParty: { value: Record<string, never> } }
  | { Empty: Record<string, never> };
export interface Right {
  kind?: Opt<RightKind>;
}
export interface ListUserRightsResponse {
  rights?: Opt<Right[]>;
}
export interface ListPackagesResponse {
  packageIds?: Opt<string[]>;
}
export interface GetPackageStatusResponse {
  /** `PACKAGE_STATUS_REGISTERED` or `PACKAGE_STATUS_UNSPECIFIED`. */
  packageStatus?: Opt<string>;
}
/** An upload answers with an empty object. */
export type UploadDarFileResponse = Record<string, never>;

// ---------------------------------------------------------------- errors

/** The JSON error body of every failed call that got past request decoding. */
export interface JsCantonError {
  code: string;
  cause: string;
  correlationId?: Opt<string>;
  traceId?: Opt<string>;
  context?: Opt<Record<string, string>>;
  /** `[key, value]` pairs; gRPC-origin keys look like `ErrorResource(CONTRACT_ID)`. */
  resources?: Opt<[string, string][]>;
  errorCategory: number;
  grpcCodeValue?: Opt<number>;
  /** A Scala duration string such as `"1 second"`. */
  retryInfo?: Opt<string>;
  definiteAnswer?: Opt<boolean>;
}
