/**
 * The reading tools: each calls the core function the CLI command or the view of the same question
 * calls (named beside it), and answers a bounded page as text with the same data beside it.
 */
import type { ActiveContract, ActiveContractsCursor, ActiveContractsQuery } from '../api/client';
import type { UpdateFilter } from '../api/updatesRequest';
import { failureFromStatus } from '../cantonFailure';
import { printType } from '../daml/types';
import { jsonSchemaFor, skeletonValue } from '../daml/jsonEncoding';
import type { QualifiedName } from '../daml/model';
import type { PackageIndex, TemplateEntry } from '../daml/packageIndex';
import { locateCause } from '../errorCauses';
import { RequestValidationError } from '../errors';
import { explainFailure } from '../failureExplanation';
import { exportGraph } from '../graph/export';
import { readTransactionGraph } from '../graph/read';
import { packagesInUse } from '../ledger/packages';
import type { Update } from '../models/updates';
import { completionsSelectionFor, failedCommandOfCompletion, type FailedCommand } from '../submit/failedCommands';
import { CompletionsPager } from '../updates/completionsPager';
import { compareParties, comparisonJson, comparisonSummaryText } from '../updates/compare';
import { eventSummary } from '../updates/rows';
import { validateText } from '../files/validate';
import { redactUrl } from '../redact';
import { boundedText, DEFAULT_PAGE, MAX_PAGE, plural, valueText } from './bounds';
import { FILE_PROPERTY, fileKindOfPath, ONE_FILE_INPUT, readAgentFile } from './files';
import { PARTIES_PROPERTY, partyIds, readAsOf } from './parties';
import { connectedInfo, defineTool, type AgentContext, type ToolResult } from './tool';

const LIMIT_PROPERTY = { type: 'integer', minimum: 1, maximum: MAX_PAGE, description: `Items in this page (default ${DEFAULT_PAGE}, at most ${MAX_PAGE}).` } as const;

// ---------------------------------------------------------------- status

export const ledgerStatusTool = defineTool<Record<string, never>>({
  name: 'canton_ledger_status',
  title: 'Ledger status',
  description:
    'The Canton participant this editor is connected to: its URL, Canton version, participant id, ledger end offset, connected synchronizers, the authenticated user with its rights (act as, read as, admin), and the parties it hosts (the first 50). Call this first to learn the offsets and party ids the other tools take.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  access: 'read',
  async run(ctx) {
    const info = await connectedInfo(ctx);
    const ledgerEnd = ctx.connection.ledger ? await ctx.connection.ledger.refreshLedgerEnd(ctx.signal) : await ctx.connection.client.ledgerEnd({ signal: ctx.signal });
    const url = redactUrl(ctx.connection.profile.url);
    const parties = info.parties.slice(0, MAX_PAGE).map((p) => p.party);
    const rights = info.rights && { actAs: info.rights.actAs, readAs: info.rights.readAs, readAsAnyParty: info.rights.readAsAnyParty, participantAdmin: info.rights.participantAdmin };
    const data = {
      url,
      connection: ctx.connection.profile.name,
      version: info.version,
      participantId: info.participantId,
      ledgerEnd,
      synchronizers: info.synchronizers.map((s) => ({ alias: s.synchronizerAlias, id: s.synchronizerId, permission: s.permission })),
      user: info.user?.id,
      rights,
      parties,
      partyCount: info.parties.length,
      ...(info.versionNotice ? { versionNotice: info.versionNotice } : {}),
    };
    const lines = [
      `Connected to ${url} (${ctx.connection.profile.name}): Canton ${info.version}${info.participantId ? `, participant ${info.participantId}` : ''}.`,
      `Ledger end: offset ${ledgerEnd}.`,
      `Synchronizers: ${info.synchronizers.map((s) => `${s.synchronizerAlias} (${s.synchronizerId})`).join(', ') || 'none'}.`,
      info.user ? `User: ${info.user.id}.` : 'No user (the participant runs without authentication): reads are as any party.',
      ...(rights ? [`Rights: act as ${rights.actAs.join(', ') || 'none'}; read as ${rights.readAs.join(', ') || 'none'}${rights.readAsAnyParty ? '; reads as any party' : ''}${rights.participantAdmin ? '; participant admin' : ''}.`] : []),
      `Parties (${info.parties.length}${info.parties.length > parties.length ? `, the first ${parties.length} shown` : ''}): ${parties.join(', ') || 'none'}.`,
      ...(info.versionNotice ? [info.versionNotice] : []),
    ];
    return { text: lines.join('\n'), data };
  },
});

// ---------------------------------------------------------------- updates

interface UpdatesInput {
  beginExclusive?: number;
  endInclusive?: number;
  parties?: string[];
  templateIds?: string[];
  shape?: 'acs-delta' | 'ledger-effects';
  includeReassignments?: boolean;
  includeTopology?: boolean;
  limit?: number;
}

export const listUpdatesTool = defineTool<UpdatesInput>({
  name: 'canton_list_updates',
  title: 'List updates',
  description:
    'A page of the ledger\'s updates (transactions, and reassignments or topology events when asked) in an offset range, oldest first: each with its offset, update id, command id and its events (created, archived, exercised with template, contract id and arguments). The page is bounded: the answer says whether more follow and the beginExclusive to ask for the next page with.',
  inputSchema: {
    type: 'object',
    properties: {
      beginExclusive: { type: 'integer', minimum: 0, description: 'Start after this offset (default 0, the ledger start).' },
      endInclusive: { type: 'integer', minimum: 1, description: 'Stop at this offset, included (default: the ledger end now).' },
      parties: PARTIES_PROPERTY,
      templateIds: { type: 'array', items: { type: 'string', pattern: '^#' }, maxItems: 20, description: 'Only these templates, as #package-name:Module:Entity.' },
      shape: { enum: ['acs-delta', 'ledger-effects'], description: 'acs-delta (created/archived, default) or ledger-effects (created/exercised).' },
      includeReassignments: { type: 'boolean', description: 'Include reassignments between synchronizers.' },
      includeTopology: { type: 'boolean', description: 'Include party-to-participant topology events.' },
      limit: LIMIT_PROPERTY,
    },
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    const limit = input.limit ?? DEFAULT_PAGE;
    const readAs = await readAsOf(ctx, input.parties);
    if (input.endInclusive !== undefined && input.beginExclusive !== undefined && input.endInclusive < input.beginExclusive) {
      throw new RequestValidationError('endInclusive', `endInclusive (${input.endInclusive}) is before beginExclusive (${input.beginExclusive})`);
    }
    const filter: UpdateFilter = {
      parties: readAs.parties,
      anyParty: readAs.anyParty,
      shape: input.shape ?? 'acs-delta',
      templateIds: input.templateIds?.length ? input.templateIds : undefined,
      includeReassignments: input.includeReassignments ?? false,
      includeTopologyEvents: input.includeTopology ?? false,
    };
    const client = ctx.connection.client;
    const endInclusive = input.endInclusive ?? (await client.ledgerEnd({ signal: ctx.signal }));
    const page: Update[] = [];
    let more = false;
    // One past the page tells whether more follow; the walk stops there (the CLI's `updates --limit`).
    walk: for await (const batch of client.walkUpdates({ selection: { filter }, beginExclusive: input.beginExclusive ?? 0, endInclusive, pageSize: Math.min(limit + 1, client.pageSize) }, { signal: ctx.signal })) {
      for (const u of batch) {
        if (u.kind === 'checkpoint') continue;
        if (page.length === limit) {
          more = true;
          break walk;
        }
        page.push(u);
      }
    }
    const updates = page.map((u) => updateData(u as Exclude<Update, { kind: 'checkpoint' }>));
    const last = page.at(-1)?.offset;
    const next = more && last !== undefined ? { beginExclusive: last, endInclusive } : undefined;
    const lines = [
      `${plural(page.length, 'update')} after offset ${input.beginExclusive ?? 0} up to ${endInclusive}${readAs.anyParty ? ' (as any party)' : ` (as ${readAs.parties.join(', ')})`}.`,
      ...updates.flatMap(updateLines),
      next ? `More updates follow: call again with beginExclusive ${next.beginExclusive} and endInclusive ${endInclusive}.` : 'No more updates in this range.',
    ];
    return { text: lines.join('\n'), data: { range: { beginExclusive: input.beginExclusive ?? 0, endInclusive }, count: page.length, updates, next } };
  },
});

type UpdateData = ReturnType<typeof updateData>;

function updateData(u: Exclude<Update, { kind: 'checkpoint' }>) {
  switch (u.kind) {
    case 'transaction':
      return {
        kind: u.kind,
        offset: u.offset,
        updateId: u.updateId,
        commandId: u.commandId,
        effectiveAt: u.effectiveAt,
        summary: eventSummary(u),
        events: u.events.map((e) =>
          e.kind === 'created'
            ? { kind: e.kind, templateId: e.templateId, contractId: e.contractId, createArgument: e.createArgument, signatories: e.signatories, observers: e.observers }
            : e.kind === 'archived'
              ? { kind: e.kind, templateId: e.templateId, contractId: e.contractId }
              : { kind: e.kind, templateId: e.templateId, contractId: e.contractId, choice: e.choice, consuming: e.consuming, actingParties: e.actingParties, choiceArgument: e.choiceArgument },
        ),
      };
    case 'reassignment':
      return { kind: u.kind, offset: u.offset, updateId: u.updateId, commandId: u.commandId, summary: 'reassignment' };
    case 'topology':
      return { kind: u.kind, offset: u.offset, updateId: u.updateId, summary: 'topology transaction' };
    default:
      return { kind: 'unknown', offset: (u as { offset?: number }).offset, summary: 'an update of a kind this version does not know' };
  }
}

function updateLines(u: UpdateData): string[] {
  const head = `${u.offset} ${u.kind} ${'updateId' in u ? u.updateId : ''}${'commandId' in u && u.commandId ? ` cmd ${u.commandId}` : ''}: ${u.summary}`;
  const events = ('events' in u ? u.events : undefined) ?? [];
  return [
    head,
    ...events.map((e) =>
      e.kind === 'created'
        ? `  created ${e.templateId} ${e.contractId} ${valueText(e.createArgument)}`
        : e.kind === 'archived'
          ? `  archived ${e.templateId} ${e.contractId}`
          : `  exercised ${e.choice}${e.consuming ? ' (consuming)' : ''} on ${e.templateId} ${e.contractId} by ${e.actingParties.join(', ')} ${valueText(e.choiceArgument)}`,
    ),
  ];
}

// ---------------------------------------------------------------- a transaction

export const transactionGraphTool = defineTool<{ updateId?: string; offset?: number; parties?: string[] }>({
  name: 'canton_transaction',
  title: 'Transaction and its graph',
  description:
    'One transaction, by its update id or its offset, as a summary and its graph drawn in text: every action (create, exercise, fetch) in tree order with its contract, the contracts it made, used and consumed, and the net change of the active contracts.',
  inputSchema: {
    type: 'object',
    properties: {
      updateId: { type: 'string', minLength: 1, description: 'The update id of the transaction.' },
      offset: { type: 'integer', minimum: 1, description: 'Or its offset.' },
      parties: PARTIES_PROPERTY,
    },
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    if ((input.updateId === undefined) === (input.offset === undefined)) throw new RequestValidationError('updateId', 'Give one of updateId or offset.');
    const readAs = await readAsOf(ctx, input.parties);
    const key = input.updateId !== undefined ? { updateId: input.updateId } : { offset: input.offset! };
    // The CLI's `graph UPDATE_ID`: the same read and the same drawing.
    const graph = await readTransactionGraph(ctx.connection.client, key, readAs, { signal: ctx.signal });
    const text = exportGraph(graph, 'text');
    const json = JSON.parse(exportGraph(graph, 'json')) as unknown;
    return { text: boundedText(text.trimEnd()), data: json };
  },
});

// ---------------------------------------------------------------- contract events

export const contractEventsTool = defineTool<{ contractId: string; parties?: string[] }>({
  name: 'canton_contract_events',
  title: 'Contract events',
  description: 'How one contract was created (template, arguments, signatories, observers, offset) and whether and where it was archived.',
  inputSchema: {
    type: 'object',
    properties: { contractId: { type: 'string', minLength: 1, description: 'The contract id.' }, parties: PARTIES_PROPERTY },
    required: ['contractId'],
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    const readAs = await readAsOf(ctx, input.parties);
    const events = await ctx.connection.client.eventsByContractId(input.contractId, { filter: readAs }, { signal: ctx.signal });
    const created = events.created?.event;
    const archived = events.archived?.event;
    const data = {
      contractId: input.contractId,
      active: events.active,
      created: created && { offset: created.offset, templateId: created.templateId, createArgument: created.createArgument, signatories: created.signatories, observers: created.observers, createdAt: created.createdAt, synchronizerId: events.created!.synchronizerId },
      archived: archived && { offset: archived.offset, synchronizerId: events.archived!.synchronizerId },
    };
    const lines = [
      `Contract ${input.contractId}: ${events.active ? 'active' : archived ? 'archived' : 'not created as far as these parties see'}.`,
      ...(created ? [`Created at offset ${created.offset} (${created.createdAt}) as ${created.templateId}; signatories ${created.signatories.join(', ')}; observers ${created.observers.join(', ') || 'none'}.`, `Arguments: ${valueText(created.createArgument, 4000)}`] : []),
      ...(archived ? [`Archived at offset ${archived.offset}.`] : []),
    ];
    return { text: lines.join('\n'), data };
  },
});

// ---------------------------------------------------------------- active contracts

interface ArgumentFilter {
  path: string;
  op: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains';
  value: string | number | boolean;
}

/** Contracts read at most while looking for a page that matches the filters: past it, the answer says where it stopped. */
const MAX_SCANNED_CONTRACTS = 10_000;

export const activeContractsTool = defineTool<{ templateId: string; where?: ArgumentFilter[]; parties?: string[]; activeAtOffset?: number; skip?: number; limit?: number }>({
  name: 'canton_active_contracts',
  title: 'Active contracts',
  description:
    'The active contracts of a template (at the ledger end, or at an offset), optionally filtered on their arguments (e.g. {"path": "amount", "op": "gt", "value": 1000}; a path is dotted field names). Answers how many match (of how many read), a page of them with their arguments, and the skip to ask for the next page (with the same activeAtOffset, so that pages agree).',
  inputSchema: {
    type: 'object',
    properties: {
      templateId: { type: 'string', pattern: '^#', description: 'The template, as #package-name:Module:Entity.' },
      where: {
        type: 'array',
        maxItems: 10,
        description: 'Argument filters, all of which must hold. Numbers in Daml are strings on the wire: gt/gte/lt/lte compare them as numbers.',
        items: {
          type: 'object',
          properties: { path: { type: 'string', minLength: 1 }, op: { enum: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'contains'] }, value: { type: ['string', 'number', 'boolean'] } },
          required: ['path', 'op', 'value'],
          additionalProperties: false,
        },
      },
      parties: PARTIES_PROPERTY,
      activeAtOffset: { type: 'integer', minimum: 0, description: 'The active contracts at this offset (default: the ledger end).' },
      skip: { type: 'integer', minimum: 0, description: 'Matching contracts to skip (for the next page).' },
      limit: LIMIT_PROPERTY,
    },
    required: ['templateId'],
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    const limit = input.limit ?? DEFAULT_PAGE;
    const skip = input.skip ?? 0;
    const readAs = await readAsOf(ctx, input.parties);
    const where = input.where ?? [];
    const query: ActiveContractsQuery = { filter: { ...readAs, templateIds: [input.templateId] }, activeAtOffset: input.activeAtOffset };
    const page: ActiveContract[] = [];
    let matched = 0;
    let scanned = 0;
    let offset = input.activeAtOffset ?? 0;
    let cursor: ActiveContractsQuery | ActiveContractsCursor | undefined = query;
    let complete = true;
    // The CLI's `acs --template`: the same pages; the filters are applied as they come.
    while (cursor) {
      if (scanned >= MAX_SCANNED_CONTRACTS) {
        complete = false;
        break;
      }
      const p = await ctx.connection.client.pageActiveContracts(cursor, { signal: ctx.signal });
      offset = p.activeAtOffset;
      for (const c of p.contracts) {
        scanned++;
        if (!where.every((f) => holds(f, c.event.createArgument))) continue;
        if (matched >= skip && page.length < limit) page.push(c);
        matched++;
      }
      cursor = p.next;
    }
    const contracts = page.map((c) => ({ contractId: c.event.contractId, templateId: c.event.templateId, createArgument: c.event.createArgument, signatories: c.event.signatories, observers: c.event.observers, createdAt: c.event.createdAt }));
    const nextSkip = skip + page.length < matched ? skip + page.length : undefined;
    const lines = [
      `${plural(matched, 'active contract')} of ${input.templateId} match${where.length ? ` the ${plural(where.length, 'filter')}` : ''} at offset ${offset} (${scanned} read${complete ? '' : `; stopped after ${MAX_SCANNED_CONTRACTS}: narrow the parties or filters for a complete count`}).`,
      ...contracts.map((c) => `  ${c.contractId} ${valueText(c.createArgument)}`),
      nextSkip !== undefined ? `More match: call again with skip ${nextSkip} and activeAtOffset ${offset}.` : `That is all${matched > 0 ? ` (${skip + 1}–${skip + page.length} shown)` : ''}.`,
    ];
    return { text: lines.join('\n'), data: { templateId: input.templateId, activeAtOffset: offset, matched, scanned, complete, skip, contracts, nextSkip } };
  },
});

/** A dotted path into a Daml value as JSON. */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function holds(f: ArgumentFilter, argument: unknown): boolean {
  const v = at(argument, f.path);
  if (v === undefined) return false;
  switch (f.op) {
    case 'eq':
      return String(v) === String(f.value);
    case 'ne':
      return String(v) !== String(f.value);
    case 'contains':
      return JSON.stringify(v).includes(String(f.value));
    default: {
      const [a, b] = [Number(v), Number(f.value)];
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return f.op === 'gt' ? a > b : f.op === 'gte' ? a >= b : f.op === 'lt' ? a < b : a <= b;
    }
  }
}

// ---------------------------------------------------------------- packages

export const packagesTool = defineTool<{ templateId?: string; search?: string; limit?: number }>({
  name: 'canton_packages',
  title: 'Daml packages, templates and choices',
  description:
    'The Daml templates the participant has (from its packages): without templateId, a list of templates (as #package-name:Module:Entity) with their choices; with templateId, the template\'s fields with their Daml types, the JSON shape (a JSON Schema and a skeleton) of its create arguments, its key, and each choice with its argument type, JSON skeleton, return type, whether it is consuming and who controls it. Use it to write a commands file.',
  inputSchema: {
    type: 'object',
    properties: {
      templateId: { type: 'string', minLength: 1, description: 'One template, as #package-name:Module:Entity or package-id:Module:Entity.' },
      search: { type: 'string', minLength: 1, description: 'Without templateId: only templates whose id contains this text (case-insensitive).' },
      limit: LIMIT_PROPERTY,
    },
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    await connectedInfo(ctx);
    const state = packagesInUse(await ctx.connection.readPackages(ctx.signal), () => ({ state: 'none' }));
    if (state === undefined || state === 'unavailable') throw new RequestValidationError('packages', 'The participant\'s packages could not be read on this connection.');
    const index = state.packages;
    if (input.templateId === undefined) {
      const search = input.search?.toLowerCase();
      const all = index.templatesByPackageName().filter((t) => !search || t.packageNameForm.toLowerCase().includes(search) || t.packageIdForm.toLowerCase().includes(search));
      const limit = input.limit ?? MAX_PAGE;
      const shown = all.slice(0, limit).map((t) => ({ templateId: t.packageNameForm, packageVersion: t.packageVersion, choices: (index.choices(t.name) ?? []).map((c) => c.choice.name) }));
      const lines = [
        `${plural(all.length, 'template')}${search ? ` matching "${input.search}"` : ''}${all.length > shown.length ? `, the first ${shown.length} shown (narrow with search)` : ''}:`,
        ...shown.map((t) => `  ${t.templateId} (v${t.packageVersion}) choices: ${t.choices.join(', ') || 'none'}`),
        'Ask with templateId for a template\'s fields, types and the JSON of its arguments.',
      ];
      return { text: lines.join('\n'), data: { count: all.length, templates: shown } };
    }
    const entry = templateEntry(index.templatesByPackageName(), index.templates(), input.templateId);
    if (!entry) throw new RequestValidationError('templateId', `No template ${input.templateId} in the participant's packages: list them without templateId.`);
    return templateDetails(index, entry);
  },
});

function templateEntry(byName: readonly TemplateEntry[], all: readonly TemplateEntry[], id: string): TemplateEntry | undefined {
  return byName.find((t) => t.packageNameForm === id) ?? all.find((t) => t.packageIdForm === id || t.packageNameForm === id);
}

function qualifiedName(n: QualifiedName): string {
  return `${n.moduleName}:${n.name}`;
}

function templateDetails(index: PackageIndex, t: TemplateEntry): ToolResult {
  const recordType = { kind: 'con' as const, con: t.name, args: [] };
  const fields = t.fields?.kind === 'record' ? t.fields.fields.map((f) => ({ name: f.name, type: printType(f.type) })) : [];
  const choices = (index.choices(t.name) ?? []).map((c) => ({
    name: c.choice.name,
    consuming: c.choice.consuming,
    declaredBy: qualifiedName(c.declaredBy),
    declaredIn: c.declaredIn,
    argumentType: printType(c.choice.argType),
    argumentSkeleton: skeletonValue(c.choice.argType, index),
    returnType: printType(c.choice.returnType),
    controllers: c.choice.controllers,
  }));
  const data = {
    templateId: t.packageNameForm,
    packageIdForm: t.packageIdForm,
    packageVersion: t.packageVersion,
    fields,
    createArgumentsSkeleton: skeletonValue(recordType, index),
    createArgumentsSchema: jsonSchemaFor(recordType, index, { title: t.packageNameForm }),
    keyType: t.template.keyType && printType(t.template.keyType),
    implements: t.template.implements.map(qualifiedName),
    choices,
  };
  const lines = [
    `Template ${t.packageNameForm} (package version ${t.packageVersion}; ${t.packageIdForm})`,
    'Fields:',
    ...fields.map((f) => `  ${f.name} : ${f.type}`),
    `Create arguments as JSON: ${valueText(data.createArgumentsSkeleton, 2000)}`,
    ...(data.keyType ? [`Key: ${data.keyType}`] : []),
    ...(data.implements.length ? [`Implements: ${data.implements.join(', ')}`] : []),
    'Choices:',
    ...choices.map((c) => `  ${c.name}${c.consuming ? '' : ' (non-consuming)'} : ${c.argumentType} -> ${c.returnType}${c.declaredIn === 'interface' ? ` (of interface ${c.declaredBy})` : ''}; argument as JSON: ${valueText(c.argumentSkeleton, 1000)}`),
  ];
  return { text: boundedText(lines.join('\n')), data };
}

// ---------------------------------------------------------------- failed commands

export const failedCommandsTool = defineTool<{ file?: string; commandId?: string; limit?: number }>({
  name: 'canton_failed_commands',
  title: 'Failed commands',
  description:
    'The most recent failed commands of the connection\'s user (from the participant\'s command completions, newest first): each with its Canton error code, cause, an explanation of what it means and what to do. With file (a .commands.json), the place in that file the cause is written (line:column). Use it to answer "why did my last command fail?".',
  inputSchema: {
    type: 'object',
    properties: {
      file: FILE_PROPERTY,
      commandId: { type: 'string', minLength: 1, description: 'Only the failures of this command id.' },
      limit: { ...LIMIT_PROPERTY, description: 'Failures in this answer (default 5, at most 50).' },
    },
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    const info = await connectedInfo(ctx);
    const client = ctx.connection.client;
    const caps = await client.capabilities({ signal: ctx.signal });
    // The Failed Commands view's pages: whose completions, back from the ledger end.
    const selection = completionsSelectionFor(info, caps.has('listCommandCompletions'));
    const end = await client.ledgerEnd({ signal: ctx.signal });
    const prunedUpToInclusive = caps.has('prunedOffsets') ? await client.prunedOffsets({ signal: ctx.signal }).then((p) => p.participantPrunedUpToInclusive, () => 0) : 0;
    const pager = new CompletionsPager(client, { selection, endInclusive: end, firstBeginExclusive: Math.max(0, end - 1000), prunedUpToInclusive });
    const limit = input.limit ?? 5;
    const failed: FailedCommand[] = [];
    const wanted = (c: FailedCommand) => c.failure !== undefined && (input.commandId === undefined || c.commandId === input.commandId);
    for (let pages = 0; pages < 8 && failed.length < limit && !pager.complete; pages++) {
      await pager.loadMore({ signal: ctx.signal });
      failed.splice(0, failed.length, ...pager.completions.map(failedCommandOfCompletion).filter(wanted));
    }
    const shown = failed.slice(0, limit);
    const text = input.file !== undefined ? await readAgentFile(ctx, input.file, 'json') : undefined;
    const items = shown.map((c) => {
      const f = c.failure ?? failureFromStatus(undefined)!;
      const cause = text !== undefined ? locateCause(f, text.text) : undefined;
      const causeAt = cause && { place: `${text!.path}:${cause.line}:${cause.column}`, what: cause.what, match: cause.match };
      return {
        commandId: c.commandId,
        offset: c.offset,
        time: c.time,
        actAs: c.actAs,
        code: f.code,
        cause: f.cause,
        causeAt,
        explanation: explainFailure(f, { commandId: c.commandId, submissionId: c.submissionId, userId: c.userId, actAs: c.actAs, offset: c.offset, recordTime: c.time, causeAt }),
      };
    });
    const range = pager.range;
    const lines = [
      `${plural(items.length, 'failed command')} (newest first) in offsets ${range.beginExclusive}–${range.endInclusive}${pager.complete ? '' : '; older ones not read'}.`,
      ...items.flatMap((i) => ['', `--- ${i.commandId} at offset ${i.offset}${i.causeAt ? `; cause at ${i.causeAt.place} (${i.causeAt.what})` : ''}`, i.explanation.trimEnd()]),
    ];
    return { text: boundedText(lines.join('\n')), data: { count: items.length, range, failures: items } };
  },
});

// ---------------------------------------------------------------- compare parties

export const comparePartiesTool = defineTool<{ parties: string[]; beginExclusive?: number; endInclusive?: number }>({
  name: 'canton_compare_parties',
  title: 'Compare Parties',
  description:
    'Reads an offset range once as each of two or three parties (ledger effects) and says who sees which transaction and event, as stakeholder, actor or witness, and what differs between them (Compare Parties). Keep the range small (the default is the last 100 offsets).',
  inputSchema: {
    type: 'object',
    properties: {
      parties: { ...PARTIES_PROPERTY, minItems: 2, maxItems: 3 },
      beginExclusive: { type: 'integer', minimum: 0, description: 'Start after this offset (default: 100 before endInclusive).' },
      endInclusive: { type: 'integer', minimum: 1, description: 'Stop at this offset, included (default: the ledger end).' },
    },
    required: ['parties'],
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    const parties = await partyIds(ctx, input.parties);
    const client = ctx.connection.client;
    const endInclusive = input.endInclusive ?? (await client.ledgerEnd({ signal: ctx.signal }));
    const beginExclusive = input.beginExclusive ?? Math.max(0, endInclusive - 100);
    // The CLI's `updates --compare-parties`.
    const comparison = await compareParties(client, { parties, beginExclusive, endInclusive, maxTransactionsPerParty: 1000 }, { signal: ctx.signal });
    return { text: boundedText(comparisonSummaryText(comparison)), data: comparisonJson(comparison) };
  },
});

// ---------------------------------------------------------------- PQS

export const pqsQueryTool = defineTool<{ sql: string; limit?: number }>({
  name: 'canton_pqs_query',
  title: 'PQS query (read-only)',
  description:
    'Runs one read-only SQL statement on the Participant Query Store (PQS) attached to the connection, as the PQS view runs a *.pqs.sql file: anything but a single reading statement is refused before it is sent. Answers the columns and a page of rows. PQS\'s functions: active(\'#pkg:Mod:T\'), creates(…), archives(…), exercises(…), lookup_contract(id).',
  inputSchema: {
    type: 'object',
    properties: { sql: { type: 'string', minLength: 1, maxLength: 20_000, description: 'One SELECT (or WITH … SELECT) statement.' }, limit: LIMIT_PROPERTY },
    required: ['sql'],
    additionalProperties: false,
  },
  access: 'read',
  async run(ctx, input) {
    const store = ctx.pqs?.();
    if (!store) throw new RequestValidationError('sql', 'No PQS is attached to this connection: connect one in the PQS view first.');
    const limit = input.limit ?? DEFAULT_PAGE;
    const r = await store.runSql(input.sql, { signal: ctx.signal }, { maxRows: limit });
    const columns = r.columns.map((c) => c.name);
    const lines = [`${plural(r.rowCount ?? r.rows.length, 'row')} in ${r.elapsedMs} ms${r.truncated ? ` (stopped after ${limit}; the statement has more: add LIMIT/OFFSET or a narrower WHERE)` : ''}.`, columns.join(' | '), ...r.rows.map((row) => row.map((v) => valueText(v, 200)).join(' | '))];
    return { text: boundedText(lines.join('\n')), data: { columns, rows: r.rows, rowCount: r.rowCount, truncated: r.truncated } };
  },
});

// ---------------------------------------------------------------- validate

export const validateFileTool = defineTool<{ file: string }>({
  name: 'canton_validate_file',
  title: 'Validate a commands or vetting file',
  description:
    'Checks a *.commands.json, *.vetting.json or *.ledger.json file as the editor does: its schema, and the Daml arguments against the participant\'s packages. Answers each problem with its line:column, severity, message and code; no problems means the file is ready to preview or send.',
  inputSchema: ONE_FILE_INPUT,
  access: 'read',
  async run(ctx, input) {
    const kind = fileKindOfPath(input.file);
    const file = await readAgentFile(ctx, input.file, 'json');
    // `canton-ledger validate --url`: the packages of the connection, when they can be read.
    await connectedInfo(ctx);
    const chosen = packagesInUse(await ctx.connection.readPackages(ctx.signal), () => ({ state: 'none' }));
    const packages = chosen === 'unavailable' ? undefined : chosen;
    const { problems } = validateText(kind, file.text, { packages });
    const items = problems.map((p) => ({ line: p.line, column: p.column, severity: p.severity, message: p.message, code: p.code }));
    const errors = items.filter((p) => p.severity === 'error').length;
    const lines = [
      `${file.path} (${kind}): ${items.length === 0 ? 'no problems' : `${plural(errors, 'error')}, ${plural(items.length - errors, 'other problem')}`}${packages ? '' : ' (Daml arguments not checked: the participant\'s packages could not be read)'}.`,
      ...items.slice(0, 200).map((p) => `${file.path}:${p.line}:${p.column}: ${p.severity}: ${p.message}${p.code ? ` [${p.code}]` : ''}`),
    ];
    return { text: boundedText(lines.join('\n')), data: { file: file.path, kind, valid: errors === 0, problems: items.slice(0, 200), problemCount: items.length } };
  },
});
