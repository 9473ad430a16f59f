/**
 * What we know about Canton's error codes: category, gRPC status, HTTP status and a hint for people.
 * One table serves the client (hints, retryability) and the demo participant (which must answer
 * with the same status and category as Canton would), so the two cannot drift apart.
 */

/** Canton's `ErrorCategory` ids (`com.digitalasset.base.error.ErrorCategory`). */
export enum ErrorCategory {
  Unknown = -1,
  TransientServerFailure = 1,
  ContentionOnSharedResources = 2,
  DeadlineExceededRequestStateUnknown = 3,
  SystemInternalAssumptionViolated = 4,
  SecurityAlert = 5,
  AuthInterceptorInvalidAuthenticationCredentials = 6,
  InsufficientPermission = 7,
  InvalidIndependentOfSystemState = 8,
  InvalidGivenCurrentSystemStateOther = 9,
  InvalidGivenCurrentSystemStateResourceExists = 10,
  InvalidGivenCurrentSystemStateResourceMissing = 11,
  InvalidGivenCurrentSystemStateSeekAfterEnd = 12,
  BackgroundProcessDegradationWarning = 13,
  InternalUnsupportedOperation = 14,
}

/** gRPC status codes, as `grpcCodeValue` carries them. */
export enum GrpcCode {
  OK = 0,
  CANCELLED = 1,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  DEADLINE_EXCEEDED = 4,
  NOT_FOUND = 5,
  ALREADY_EXISTS = 6,
  PERMISSION_DENIED = 7,
  RESOURCE_EXHAUSTED = 8,
  FAILED_PRECONDITION = 9,
  ABORTED = 10,
  OUT_OF_RANGE = 11,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
  UNAVAILABLE = 14,
  DATA_LOSS = 15,
  UNAUTHENTICATED = 16,
}

interface CategoryInfo {
  grpc: GrpcCode;
  retryable: boolean;
}

const CATEGORIES: Record<number, CategoryInfo> = {
  1: { grpc: GrpcCode.UNAVAILABLE, retryable: true },
  2: { grpc: GrpcCode.ABORTED, retryable: true },
  3: { grpc: GrpcCode.DEADLINE_EXCEEDED, retryable: true },
  4: { grpc: GrpcCode.INTERNAL, retryable: false },
  5: { grpc: GrpcCode.INVALID_ARGUMENT, retryable: false },
  6: { grpc: GrpcCode.UNAUTHENTICATED, retryable: false },
  7: { grpc: GrpcCode.PERMISSION_DENIED, retryable: false },
  8: { grpc: GrpcCode.INVALID_ARGUMENT, retryable: false },
  9: { grpc: GrpcCode.FAILED_PRECONDITION, retryable: false },
  10: { grpc: GrpcCode.ALREADY_EXISTS, retryable: false },
  11: { grpc: GrpcCode.NOT_FOUND, retryable: false },
  12: { grpc: GrpcCode.OUT_OF_RANGE, retryable: true },
  13: { grpc: GrpcCode.INTERNAL, retryable: false },
  14: { grpc: GrpcCode.UNIMPLEMENTED, retryable: false },
};

/** `GrpcHttpErrorCodes.asPekkoHttp`: the same in 3.3–3.6. */
export function httpStatusForGrpc(code: GrpcCode): number {
  switch (code) {
    case GrpcCode.INVALID_ARGUMENT:
    case GrpcCode.FAILED_PRECONDITION:
    case GrpcCode.OUT_OF_RANGE:
      return 400;
    case GrpcCode.UNAUTHENTICATED:
      return 401;
    case GrpcCode.PERMISSION_DENIED:
      return 403;
    case GrpcCode.NOT_FOUND:
      return 404;
    case GrpcCode.ABORTED:
    case GrpcCode.ALREADY_EXISTS:
      return 409;
    case GrpcCode.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcCode.CANCELLED:
      return 499;
    case GrpcCode.UNIMPLEMENTED:
      return 501;
    case GrpcCode.UNAVAILABLE:
      return 503;
    case GrpcCode.DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

export function grpcCodeForCategory(category: number): GrpcCode {
  return CATEGORIES[category]?.grpc ?? GrpcCode.UNKNOWN;
}

/** Categories whose errors Canton marks as retryable (with `retryInfo`). */
export function isRetryableCategory(category: number): boolean {
  return CATEGORIES[category]?.retryable ?? false;
}

export interface KnownErrorCode {
  category: ErrorCategory;
  /** HTTP status when it does not follow from the category (only the list cap). */
  httpStatus?: number;
  hint: string;
}

const KNOWN_VERSION_HINT =
  'A different package with the same name and version is already on the participant: bump the version in daml.yaml (or rename the package) and rebuild the DAR.';

/** Canton error codes the extension has something useful to say about. */
export const KNOWN_ERROR_CODES: Readonly<Record<string, KnownErrorCode>> = {
  INVALID_ARGUMENT: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'The request has an invalid field; the cause names it.' },
  MISSING_FIELD: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'A required field is missing from the request.' },
  INVALID_FIELD: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'A field of the request has an invalid value; the cause names it.' },
  COMMAND_PREPROCESSING_FAILED: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'The Daml arguments do not match the template or choice: check field names and types.' },
  DAML_INTERPRETATION_ERROR: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The Daml code rejected the command (failed assertion, missing authorization or bad argument).' },
  CONTRACT_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'The contract is archived, unknown, or not visible to the submitting parties.' },
  CONTRACT_EVENTS_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'The contract is unknown, pruned, or not visible to the parties of the event format.' },
  PACKAGE_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'No package with this id is uploaded to the participant.' },
  INVALID_DAR: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'The uploaded file is not a DAR: a zip with META-INF/MANIFEST.MF and .dalf packages.' },
  DAR_PARSE_ERROR: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'A package in the DAR could not be read: rebuild the DAR with a Daml SDK the participant supports.' },
  // DAR upload refusals of Smart Contract Upgrades; newer releases renamed the first two (the old names stay for older participants).
  KNOWN_DAR_VERSION: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: KNOWN_VERSION_HINT },
  KNOWN_PACKAGE_VERSION: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: KNOWN_VERSION_HINT },
  DAR_NOT_VALID_UPGRADE: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The DAR is not a valid upgrade of the package of the same name on the participant (the cause names what changed): keep the change upgrade-compatible, or ship it under a new package name.' },
  NOT_VALID_UPGRADE_PACKAGE: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The package is not a valid upgrade of the vetted package of the same name (the cause names what changed): keep the change upgrade-compatible, or ship it under a new package name.' },
  UNSUPPORTED_BY_DEMO_PARTICIPANT: { category: ErrorCategory.InternalUnsupportedOperation, hint: 'The demo participant simulates a ledger without interpreting Daml: on templates loaded from DARs only creates and Archive work. Use a Canton node for the rest.' },
  TEMPLATES_OR_INTERFACES_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'A template or interface id is not known on the participant: check the package name and that the DAR is uploaded.' },
  PACKAGE_NAMES_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'The package name in a template id is not known on the participant: upload the DAR or fix the name.' },
  DUPLICATE_COMMAND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceExists, hint: 'A command with this commandId was already accepted within the deduplication period: it was not executed again.' },
  OFFSET_AFTER_LEDGER_END: { category: ErrorCategory.InvalidGivenCurrentSystemStateSeekAfterEnd, hint: 'The requested offset is beyond the ledger end: read the ledger end first and stay at or below it.' },
  OFFSET_OUT_OF_RANGE: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The begin offset is after the end offset.' },
  NEGATIVE_OFFSET: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'Offsets are integers ≥ 0 (0 means the ledger start).' },
  NON_POSITIVE_OFFSET: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'This offset must be greater than 0.' },
  DAML_AUTHORIZATION_ERROR: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'A required authorizer is missing: put the signatories or choice controllers in actAs.' },
  CONTRACT_KEY_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'No active contract has this key (or it is not visible to the submitting parties).' },
  DUPLICATE_CONTRACT_KEY: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceExists, hint: 'An active contract already has this key: archive it first or use another key.' },
  CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'A choice was exercised through an interface the contract\'s template does not implement.' },
  WRONGLY_TYPED_CONTRACT: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The contract id belongs to a different template than the command names.' },
  // Topology-aware package selection (CommandExecutionErrors.scala, ledger-common): no version of a package the command names is vetted by every host of every party that needs it.
  PACKAGE_SELECTION_FAILED: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'A participant hosting one of the parties has not vetted any version of the package the command uses (the cause names the package and the party): vet it there, or run the pre-flight to see which host lacks it.' },
  // LedgerApiErrors.scala, ledger-common: the preferred-packages query found no version every host of the parties vetted.
  NO_PREFERRED_PACKAGES_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'No version of the package is vetted by every participant hosting the parties (the cause names the party and the package): vet a common version on each host.' },
  NO_SYNCHRONIZER_FOR_SUBMISSION: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'No connected synchronizer hosts all the parties and has the packages vetted: check vetting and party hosting.' },
  INVALID_DEDUPLICATION_PERIOD: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The deduplication period is longer than the participant allows: shorten it.' },
  PARTY_ALREADY_EXISTS: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceExists, hint: 'A party with this hint already exists on the participant.' },
  PARTICIPANT_PRUNED_DATA_ACCESSED: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The begin offset is below the pruning offset: start at or after the earliest unpruned offset.' },
  UPDATE_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'No update with that id, offset or transaction hash is visible to the requesting parties (look-ups by hash find only externally signed transactions committed since the upgrade to 3.6).' },
  COMPLETION_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'No completion with that transaction hash is visible to the user: unknown, pruned, or from before the upgrade to 3.5.' },
  USER_NOT_FOUND: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'The user does not exist on this participant.' },
  JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, httpStatus: 413, hint: 'More results than the participant returns in one list: page with a smaller limit.' },
  TOPOLOGY_DEPENDENCIES_NOT_VETTED: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'Vet the missing dependencies first (or in the same request), or set the ALLOW_UNVETTED_DEPENDENCIES force flag.' },
  PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The participant is connected to several synchronizers: set synchronizerId in the request.' },
  TOPOLOGY_SERIAL_MISMATCH: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The vetting state changed since expectedTopologySerial was read: refresh the serial from the current state and review the change again.' },
  FAILED_TO_PREPARE_TRANSACTION: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'The participant would not prepare this transaction (the cause says why). From Canton 3.4 it prepares one command at a time by default: preview each command alone.' },
  // Interpretation rejections (CommandExecutionErrors.scala, ConsistencyErrors.scala in digital-asset/canton, ledger-common).
  CONTRACT_NOT_ACTIVE: { category: ErrorCategory.InvalidGivenCurrentSystemStateResourceMissing, hint: 'The contract was archived earlier in this same transaction: exercise or fetch it before the consuming choice, or use the contract that choice created.' },
  INCONSISTENT_CONTRACT_KEY: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The contract key now points at another contract (a concurrent transaction re-assigned it): read it again and retry.' },
  TEMPLATE_PRECONDITION_VIOLATED: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: "The create arguments break the template's ensure clause: change the values so that it holds." },
  INTERPRETATION_USER_ERROR: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The Daml code called abort, error or assert: the message says which condition failed.' },
  UNHANDLED_EXCEPTION: { category: ErrorCategory.InvalidGivenCurrentSystemStateOther, hint: 'The choice threw a Daml exception nothing caught (a failed assertMsg, a division by zero…): the message says which.' },
  DAML_INTERPRETER_INVALID_ARGUMENT: { category: ErrorCategory.InvalidIndependentOfSystemState, hint: 'A Daml builtin got an argument it refuses (the cause names it): check the values the command passes.' },
  LOCAL_VERDICT_LOCKED_CONTRACTS: { category: ErrorCategory.ContentionOnSharedResources, hint: 'Another transaction is using the same contracts: retry shortly.' },
  REQUEST_DEADLINE_EXCEEDED: { category: ErrorCategory.DeadlineExceededRequestStateUnknown, hint: 'The participant gave up waiting: the outcome is unknown; look the command up before retrying.' },
  LEDGER_API_INTERNAL_ERROR: { category: ErrorCategory.SystemInternalAssumptionViolated, hint: 'The participant failed internally: see its log for the trace id.' },
  // Also what a 3.8 participant answers for a call outside the token's API areas: a missing claim is
  // PERMISSION_DENIED (canton community/base/.../auth/Authorizer.scala), redacted like every auth error.
  NA: { category: ErrorCategory.Unknown, hint: 'The participant hides the details of security-sensitive errors: check the token (its audience, and from Canton 3.8 whether its scope covers this API area) and the user\'s rights.' },
};

export function hintForCode(code: string): string | undefined {
  return KNOWN_ERROR_CODES[code]?.hint;
}
