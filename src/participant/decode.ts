/**
 * Request body decoding, the part Canton's JSON layer (tapir + circe) does before any validation:
 * a body that is not JSON, has a field of the wrong type, misses a field the spec requires, or
 * carries a malformed identifier is refused with 400 text/plain. Unknown fields are ignored
 * (`strictDecoding = false`), null counts as absent, and int64 fields also accept numeric strings.
 */
import type * as wire from '../core/models/wire';
import { UPDATES_CONTRACT_ID_FIELD, type UpdatesRequestWithContractIds } from '../core/api/contractIdFilter';
import { parseIdentifierRef } from './packages';
import { DecodeFailure } from './errors';
import type { ParsedCommand } from './interpreter';
import { parseInstant } from './time';

type Json = Record<string, unknown>;

function describe(value: unknown): string {
  return `Got value '${JSON.stringify(value)}' with wrong type`;
}

/** Reads typed fields of one JSON object, reporting failures with their path like circe does. */
class Fields {
  constructor(
    private readonly json: Json,
    readonly path: string,
  ) {}

  static of(value: unknown, path: string): Fields {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw DecodeFailure.body(`DecodingFailure at ${path || '.'}: ${describe(value)}, expecting object`);
    }
    return new Fields(value as Json, path);
  }

  private fail(name: string, problem: string): never {
    throw DecodeFailure.body(`DecodingFailure at ${this.path}.${name}: ${problem}`);
  }

  private raw(name: string, required: boolean): unknown {
    const value = this.json[name];
    if ((value === undefined || value === null) && required) this.fail(name, 'Missing required field');
    return value ?? undefined;
  }

  any(name: string): unknown {
    return this.raw(name, true);
  }

  optional(name: string): unknown {
    return this.raw(name, false);
  }

  int(name: string, required: true): number;
  int(name: string, required?: false): number | undefined;
  int(name: string, required = false): number | undefined {
    const value = this.raw(name, required);
    if (value === undefined) return undefined;
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) this.fail(name, `${describe(value)}, expecting Long`);
    return n;
  }

  str(name: string, required: true): string;
  str(name: string, required?: false): string | undefined;
  str(name: string, required = false): string | undefined {
    const value = this.raw(name, required);
    if (value !== undefined && typeof value !== 'string') this.fail(name, `${describe(value)}, expecting string`);
    return value as string | undefined;
  }

  bool(name: string): boolean | undefined {
    const value = this.raw(name, false);
    if (value !== undefined && typeof value !== 'boolean') this.fail(name, `${describe(value)}, expecting boolean`);
    return value as boolean | undefined;
  }

  timestamp(name: string): string | undefined {
    const value = this.str(name);
    if (value !== undefined && parseInstant(value) === undefined) this.fail(name, `invalid timestamp ${JSON.stringify(value)}`);
    return value;
  }

  identifier(name: string): string {
    const value = this.str(name, true);
    if (!parseIdentifierRef(value)) this.fail(name, `invalid identifier ${JSON.stringify(value)}`);
    return value;
  }

  /** A required enum field. */
  enumValue<E extends string>(name: string, values: readonly E[]): E {
    const value = this.str(name, true);
    if (!values.includes(value as E)) this.fail(name, `unknown enum value ${JSON.stringify(value)}`);
    return value as E;
  }

  object(name: string, required: true): Fields;
  object(name: string, required?: false): Fields | undefined;
  object(name: string, required = false): Fields | undefined {
    const value = this.raw(name, required);
    return value === undefined ? undefined : Fields.of(value, `${this.path}.${name}`);
  }

  list<T>(name: string, item: (value: unknown, path: string) => T, required = false): T[] | undefined {
    const value = this.raw(name, required);
    if (value === undefined) return undefined;
    if (!Array.isArray(value)) this.fail(name, `${describe(value)}, expecting array`);
    return value.map((v, i) => item(v, `${this.path}.${name}[${i}]`));
  }

  strings(name: string, required = false): string[] | undefined {
    return this.list(
      name,
      (v, path) => {
        if (typeof v !== 'string') throw DecodeFailure.body(`DecodingFailure at ${path}: ${describe(v)}, expecting string`);
        return v;
      },
      required,
    );
  }

  /** A map object (`filtersByParty`). */
  entries(name: string): [string, unknown][] | undefined {
    return this.object(name) && Object.entries(this.json[name] as Json);
  }

  /**
   * A variant (NOTES §1.4): an object with exactly one key, one of `cases`. Returns the case and
   * its content; the content of `value`-wrapped cases is unwrapped by the caller.
   */
  variant<C extends string>(name: string, cases: readonly C[]): [C, Fields] | undefined {
    const holder = this.object(name);
    return holder && readVariant(holder.json, holder.path, cases);
  }
}

function readVariant<C extends string>(json: Json, path: string, cases: readonly C[]): [C, Fields] {
  const keys = Object.keys(json);
  if (keys.length !== 1 || !cases.includes(keys[0] as C)) {
    throw DecodeFailure.body(`DecodingFailure at ${path}: expected exactly one of ${cases.join(', ')}, got ${JSON.stringify(keys)}`);
  }
  return [keys[0] as C, Fields.of(json[keys[0]], `${path}.${keys[0]}`)];
}

/**
 * How deeply arrays and objects may nest in a request body. Deeper bodies are refused (400) before
 * any decoder walks them recursively, which would otherwise exhaust the stack (a 500).
 */
export const MAX_BODY_DEPTH = 1000;

export function parseBody(text: string): unknown {
  if (text.trim() === '') throw DecodeFailure.body('expected json value got end of input');
  // Counted on the text, before parsing: brackets inside strings are skipped.
  if (nestingDepth(text) > MAX_BODY_DEPTH) throw DecodeFailure.body(`the JSON nests deeper than ${MAX_BODY_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw DecodeFailure.body(`expected json value: ${(e as Error).message}`);
  }
}

/** The deepest nesting of arrays and objects in a JSON text (stops counting past the maximum). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, honouring backslash escapes.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > MAX_BODY_DEPTH) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

// ---------------------------------------------------------------- filters and formats

function decodeFilters(value: unknown, path: string): wire.Filters {
  const f = Fields.of(value, path);
  return {
    cumulative: f.list('cumulative', (item, itemPath) => {
      const variant = Fields.of(item, itemPath).variant('identifierFilter', ['WildcardFilter', 'TemplateFilter', 'InterfaceFilter', 'Empty']);
      if (!variant) return {};
      const [kind, content] = variant;
      const v = kind === 'Empty' ? undefined : content.object('value', true);
      switch (kind) {
        case 'Empty':
          return { identifierFilter: { Empty: {} } };
        case 'WildcardFilter':
          return { identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: v!.bool('includeCreatedEventBlob') } } } };
        case 'TemplateFilter':
          return {
            identifierFilter: { TemplateFilter: { value: { templateId: v!.identifier('templateId'), includeCreatedEventBlob: v!.bool('includeCreatedEventBlob') } } },
          };
        case 'InterfaceFilter':
          return {
            identifierFilter: {
              InterfaceFilter: {
                value: {
                  interfaceId: v!.identifier('interfaceId'),
                  includeInterfaceView: v!.bool('includeInterfaceView'),
                  includeCreatedEventBlob: v!.bool('includeCreatedEventBlob'),
                },
              },
            },
          };
      }
    }),
  };
}

function decodeFilterFields(f: Fields): wire.LegacyTransactionFilter {
  const byParty = f.entries('filtersByParty');
  const anyParty = f.optional('filtersForAnyParty');
  return {
    filtersByParty: byParty && Object.fromEntries(byParty.map(([party, filters]) => [party, decodeFilters(filters, `${f.path}.filtersByParty.${party}`)])),
    filtersForAnyParty: anyParty === undefined ? undefined : decodeFilters(anyParty, `${f.path}.filtersForAnyParty`),
  };
}

function decodeEventFormat(f: Fields): wire.EventFormat {
  return { ...decodeFilterFields(f), verbose: f.bool('verbose') };
}

const SHAPES = ['TRANSACTION_SHAPE_UNSPECIFIED', 'TRANSACTION_SHAPE_ACS_DELTA', 'TRANSACTION_SHAPE_LEDGER_EFFECTS'] as const;

function decodeTransactionFormat(f: Fields): wire.TransactionFormat {
  return {
    eventFormat: decodeEventFormat(f.object('eventFormat', true)),
    transactionShape: f.enumValue('transactionShape', SHAPES) as wire.TransactionShape,
  };
}

function decodeUpdateFormat(f: Fields): wire.UpdateFormat {
  const transactions = f.object('includeTransactions');
  const reassignments = f.object('includeReassignments');
  const topology = f.object('includeTopologyEvents')?.object('includeParticipantAuthorizationEvents');
  return {
    includeTransactions: transactions && decodeTransactionFormat(transactions),
    includeReassignments: reassignments && decodeEventFormat(reassignments),
    includeTopologyEvents: topology && { includeParticipantAuthorizationEvents: { parties: topology.strings('parties') } },
  };
}

// ---------------------------------------------------------------- updates

export function decodeGetUpdatesRequest(body: unknown): UpdatesRequestWithContractIds {
  const f = Fields.of(body, '');
  const updateFormat = f.object('updateFormat');
  const filter = f.object('filter');
  return {
    beginExclusive: f.int('beginExclusive', true),
    endInclusive: f.int('endInclusive'),
    updateFormat: updateFormat && decodeUpdateFormat(updateFormat),
    descendingOrder: f.bool('descendingOrder'),
    filter: filter && decodeFilterFields(filter),
    verbose: f.bool('verbose'),
    [UPDATES_CONTRACT_ID_FIELD]: f.strings(UPDATES_CONTRACT_ID_FIELD),
  };
}

export function decodeGetUpdatesPageRequest(body: unknown): wire.GetUpdatesPageRequest {
  const f = Fields.of(body, '');
  return {
    updateFormat: decodeUpdateFormat(f.object('updateFormat', true)),
    beginOffsetExclusive: f.int('beginOffsetExclusive'),
    endOffsetInclusive: f.int('endOffsetInclusive'),
    maxPageSize: f.int('maxPageSize'),
    descendingOrder: f.bool('descendingOrder'),
    pageToken: f.str('pageToken'),
  };
}

/** A proto `bytes` field: base64 in JSON; anything else fails decoding, as circe's bytes codec does. */
function base64Field(f: Fields, name: string): string {
  const value = f.str(name) ?? '';
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw DecodeFailure.body(`DecodingFailure at ${f.path}.${name}: ${JSON.stringify(value)} is not base64`);
  return value;
}

/** `POST /v2/updates/update-by-hash` (3.6). */
export function decodeGetUpdateByHashRequest(body: unknown): wire.GetUpdateByHashRequest {
  const f = Fields.of(body, '');
  return { transactionHash: base64Field(f, 'transactionHash'), updateFormat: decodeUpdateFormat(f.object('updateFormat', true)) };
}

/** `POST /v2/commands/completion-by-hash` (3.6). */
export function decodeGetCompletionByHashRequest(body: unknown): wire.GetCompletionByHashRequest {
  return { transactionHash: base64Field(Fields.of(body, ''), 'transactionHash') };
}

/** `POST /v2/updates/update-by-id` and `/update-by-offset`: one key and the update format (both required). */
export function decodeGetUpdateByIdRequest(body: unknown): wire.GetUpdateByIdRequest {
  const f = Fields.of(body, '');
  return { updateId: f.str('updateId', true), updateFormat: decodeUpdateFormat(f.object('updateFormat', true)) };
}
export function decodeGetUpdateByOffsetRequest(body: unknown): wire.GetUpdateByOffsetRequest {
  const f = Fields.of(body, '');
  return { offset: f.int('offset', true), updateFormat: decodeUpdateFormat(f.object('updateFormat', true)) };
}

/** 3.3 also took `requestingParties` instead of `eventFormat`; later releases ignore it (and need `eventFormat`). */
export function decodeEventsByContractIdRequest(body: unknown): { contractId: string; eventFormat?: wire.EventFormat; requestingParties?: string[] } {
  const f = Fields.of(body, '');
  const format = f.object('eventFormat');
  return { contractId: f.str('contractId', true), eventFormat: format && decodeEventFormat(format), requestingParties: f.strings('requestingParties') };
}

// ---------------------------------------------------------------- commands

export type DecodedCommands = Omit<wire.JsCommands, 'commands'> & { commands: ParsedCommand[] };

const COMMAND_KINDS = ['CreateCommand', 'ExerciseCommand', 'CreateAndExerciseCommand', 'ExerciseByKeyCommand'] as const;

function decodeCommand(value: unknown, path: string): ParsedCommand {
  Fields.of(value, path); // must be an object
  const [kind, c] = readVariant(value as Json, path, COMMAND_KINDS);
  const templateId = c.identifier('templateId');
  const ref = parseIdentifierRef(templateId)!;
  switch (kind) {
    case 'CreateCommand':
      return { kind: 'create', templateId, ref, createArguments: c.any('createArguments') };
    case 'ExerciseCommand':
      return { kind: 'exercise', templateId, ref, contractId: c.str('contractId', true), choice: c.str('choice', true), choiceArgument: c.any('choiceArgument') };
    case 'CreateAndExerciseCommand':
      return {
        kind: 'createAndExercise',
        templateId,
        ref,
        createArguments: c.any('createArguments'),
        choice: c.str('choice', true),
        choiceArgument: c.any('choiceArgument'),
      };
    case 'ExerciseByKeyCommand':
      return { kind: 'exerciseByKey', templateId, ref, contractKey: c.any('contractKey'), choice: c.str('choice', true), choiceArgument: c.any('choiceArgument') };
  }
}

function decodeDuration(f: Fields): wire.Duration {
  return { seconds: f.int('seconds') ?? 0, nanos: f.int('nanos') ?? 0 };
}

function decodeDeduplication(f: Fields): wire.DeduplicationPeriod | undefined {
  const variant = f.variant('deduplicationPeriod', ['DeduplicationDuration', 'DeduplicationOffset', 'Empty']);
  if (!variant) return undefined;
  const [kind, content] = variant;
  switch (kind) {
    case 'DeduplicationDuration':
      return { DeduplicationDuration: { value: decodeDuration(content.object('value', true)) } };
    case 'DeduplicationOffset':
      return { DeduplicationOffset: { value: content.int('value', true) } };
    case 'Empty':
      return { Empty: {} };
  }
}

export function decodeCommands(value: unknown, path = ''): DecodedCommands {
  const f = Fields.of(value, path);
  const relative = f.object('minLedgerTimeRel');
  return {
    commands: f.list('commands', decodeCommand, true)!,
    commandId: f.str('commandId', true),
    actAs: f.strings('actAs', true)!,
    userId: f.str('userId'),
    readAs: f.strings('readAs'),
    workflowId: f.str('workflowId'),
    deduplicationPeriod: decodeDeduplication(f),
    minLedgerTimeAbs: f.timestamp('minLedgerTimeAbs'),
    minLedgerTimeRel: relative && decodeDuration(relative),
    submissionId: f.str('submissionId'),
    synchronizerId: f.str('synchronizerId'),
    packageIdSelectionPreference: f.strings('packageIdSelectionPreference'),
  };
}

/** `JsPrepareSubmissionRequest`: the commands and the parties; the hashing options are not simulated. */
export function decodePrepareSubmissionRequest(body: unknown): Pick<DecodedCommands, 'commands' | 'commandId' | 'actAs' | 'readAs' | 'userId' | 'synchronizerId'> & { verboseHashing?: boolean; costEstimationDisabled?: boolean } {
  const f = Fields.of(body, '');
  return {
    commands: f.list('commands', decodeCommand, true)!,
    commandId: f.str('commandId', true),
    actAs: f.strings('actAs', true)!,
    readAs: f.strings('readAs'),
    userId: f.str('userId'),
    synchronizerId: f.str('synchronizerId'),
    verboseHashing: f.bool('verboseHashing'),
    costEstimationDisabled: f.object('estimateTrafficCost')?.bool('disabled'),
  };
}

export interface DecodedActiveContractsRequest {
  activeAtOffset?: number;
  eventFormat?: wire.EventFormat;
  filter?: wire.LegacyTransactionFilter;
  verbose?: boolean;
  /** The list's `streamContinuationToken`, or the page's `pageToken`. */
  token?: string;
  maxPageSize?: number;
}

/** `GetActiveContractsRequest` (the list) and `GetActiveContractsPageRequest`. */
export function decodeActiveContractsRequest(body: unknown): DecodedActiveContractsRequest {
  const f = Fields.of(body, '');
  const format = f.object('eventFormat');
  const legacy = f.object('filter');
  return {
    activeAtOffset: f.int('activeAtOffset'),
    eventFormat: format && decodeEventFormat(format),
    filter: legacy && decodeFilterFields(legacy),
    verbose: f.bool('verbose'),
    token: f.str('streamContinuationToken') || f.str('pageToken') || undefined,
    maxPageSize: f.int('maxPageSize'),
  };
}

export function decodeSubmitAndWaitForTransactionRequest(body: unknown): { commands: DecodedCommands; transactionFormat?: wire.TransactionFormat } {
  const f = Fields.of(body, '');
  const format = f.object('transactionFormat');
  return { commands: decodeCommands(f.any('commands'), '.commands'), transactionFormat: format && decodeTransactionFormat(format) };
}

// ---------------------------------------------------------------- package vetting and parties

function decodeRefs(f: Fields): wire.VettedPackagesRef[] {
  return f.list(
    'packages',
    (v, path) => {
      const ref = Fields.of(v, path);
      return { packageId: ref.str('packageId'), packageName: ref.str('packageName'), packageVersion: ref.str('packageVersion') };
    },
    true,
  )!;
}

const FORCE_FLAGS = [
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_UNSPECIFIED',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
  'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
] as const;

export function decodeUpdateVettedPackagesRequest(body: unknown): wire.UpdateVettedPackagesRequest {
  const f = Fields.of(body, '');
  const serial = f.object('expectedTopologySerial')?.variant('serial', ['Prior', 'NoPrior', 'Empty']);
  return {
    changes: f.list(
      'changes',
      (v, path): wire.VettedPackagesChange => {
        const operation = Fields.of(v, path).variant('operation', ['Vet', 'Unvet', 'Empty']);
        if (!operation || operation[0] === 'Empty') return { operation: { Empty: {} } };
        const content = operation[1].object('value', true);
        if (operation[0] === 'Unvet') return { operation: { Unvet: { value: { packages: decodeRefs(content) } } } };
        return {
          operation: {
            Vet: {
              value: {
                packages: decodeRefs(content),
                newValidFromInclusive: content.timestamp('newValidFromInclusive'),
                newValidUntilExclusive: content.timestamp('newValidUntilExclusive'),
              },
            },
          },
        };
      },
      true,
    )!,
    dryRun: f.bool('dryRun'),
    synchronizerId: f.str('synchronizerId'),
    expectedTopologySerial: serial && {
      serial: serial[0] === 'Prior' ? { Prior: { value: serial[1].int('value', true) } } : serial[0] === 'NoPrior' ? { NoPrior: {} } : { Empty: {} },
    },
    updateVettedPackagesForceFlags: f.list('updateVettedPackagesForceFlags', (v, path) => {
      if (typeof v !== 'string' || !(FORCE_FLAGS as readonly string[]).includes(v)) {
        throw DecodeFailure.body(`DecodingFailure at ${path}: unknown enum value ${JSON.stringify(v)}`);
      }
      return v as wire.UpdateVettedPackagesForceFlag;
    }),
  };
}

export function decodeListVettedPackagesRequest(body: unknown): wire.ListVettedPackagesRequest {
  const f = Fields.of(body, '');
  const metadata = f.object('packageMetadataFilter');
  const topology = f.object('topologyStateFilter');
  return {
    packageMetadataFilter: metadata && { packageIds: metadata.strings('packageIds'), packageNamePrefixes: metadata.strings('packageNamePrefixes') },
    topologyStateFilter: topology && { participantIds: topology.strings('participantIds'), synchronizerIds: topology.strings('synchronizerIds') },
    pageToken: f.str('pageToken'),
    pageSize: f.int('pageSize'),
  };
}

export function decodeAllocatePartyRequest(body: unknown): { partyIdHint?: string } {
  return { partyIdHint: Fields.of(body, '').str('partyIdHint') };
}

export interface PreferredPackagesRequest {
  requirements: { packageName: string; parties: string[] }[];
  synchronizerId?: string;
  vettingValidAt?: string;
}

export function decodeGetPreferredPackagesRequest(body: unknown): PreferredPackagesRequest {
  const f = Fields.of(body, '');
  const requirements =
    f.list('packageVettingRequirements', (v, path) => {
      const r = Fields.of(v, path);
      return { packageName: r.str('packageName', true), parties: r.strings('parties') ?? [] };
    }) ?? [];
  return { requirements, synchronizerId: f.str('synchronizerId') || undefined, vettingValidAt: f.timestamp('vettingValidAt') };
}
