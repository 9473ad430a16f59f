/**
 * The checker: a participant's OpenAPI document, the catalogue and the participant's version → the
 * compatibility report, and the rules the client holds each request to before sending it (the guard).
 */
import { endpointFor, lineOf, OPERATION_TITLES, OPERATIONS, REQUEST_SHAPES, requiredAt, unknownVersionNotice, type Endpoint, type RequestSchemaName, type RequestShape } from '../versions';
import { closestName, nameDistance } from '../spelling';
import { CATALOGUE, childPath, inRange, sentAlways, type CatalogueEntry, type CataloguedOperation, type ReadField, type SentField } from './catalogue';
import { OpenApiReader, pathShape, type OpenApiDocument, type OpenApiOperation, type Schema } from './openapi';
import { refusesEveryRequest, severityOf, statusOf, type CompatibilityFinding, type CompatibilityReport, type CompatibilitySource, type OperationCompatibility, type TableOnlyReason } from './report';
import { findingLine, summaryLine } from './wording';
import { scopeRequirementsOf, type ScopeRequirements } from '../auth/scopes';

/** What the participant's document says of one body position we send: what the guard checks of each request. */
export interface PositionRule {
  /** Members it requires (the version table's leniencies left out). */
  required?: readonly string[];
  /** The values it lists, for an enum position we send a value at. */
  values?: readonly string[];
  /** The cases it knows, for a variant. */
  cases?: readonly string[];
}

/** The rules of one operation: refused outright, or the rules of its body's positions. */
export interface OperationRules {
  /** Every request is refused with this finding (no such endpoint, a required field we never send…). */
  refused?: CompatibilityFinding;
  /** By position (`GetUpdatesRequest.updateFormat.includeTransactions`). */
  positions: ReadonlyMap<string, PositionRule>;
  /** The body's root position name (the participant's name for the schema). */
  root?: string;
  /** The members the participant's description declares at the body's root. */
  rootMembers?: readonly string[];
}

/**
 * Whether the participant's own description declares `field` at the root of an operation's body: how
 * a field whose name no published spec confirms is sent only where the participant says it has it.
 */
export function declaresBodyField(check: CompatibilityCheck | undefined, operation: CataloguedOperation, field: string): boolean {
  return check?.rules.get(operation)?.rootMembers?.includes(field) ?? false;
}

export interface CompatibilityCheck {
  report: CompatibilityReport;
  /** Per operation, what the guard holds requests to (absent: nothing to check). */
  rules: ReadonlyMap<CataloguedOperation, OperationRules>;
  /** The token scopes its operations list (Canton 3.8's API areas); absent when it lists none. */
  scopes?: ScopeRequirements;
}

/** The report of a participant whose description was not read: the version table decides, as it always did. */
export function tableOnlyReport(version: string, reason: TableOnlyReason, detail?: string): CompatibilityReport {
  const source: CompatibilitySource = { kind: 'version-table', reason, ...(detail ? { detail } : {}) };
  const operations = (Object.keys(CATALOGUE) as CataloguedOperation[]).map((operation): OperationCompatibility => {
    const endpoint = endpointFor(operation, version);
    return { operation, title: OPERATION_TITLES[operation], ...endpointFields(endpoint), status: endpoint ? (endpoint.websocket ? 'not-checked' : 'works') : 'not-in-version', findings: [] };
  });
  return finish({ version, releaseLine: lineOf(version), ...notice(version), source, operations, unused: [] }, [], Boolean(unknownVersionNotice(version)));
}

/** Checks every request of the catalogue that the version sends against the participant's own document. */
export function checkCompatibility(document: OpenApiDocument, version: string): CompatibilityCheck {
  const reader = new OpenApiReader(document);
  const rules = new Map<CataloguedOperation, OperationRules>();
  const operations: OperationCompatibility[] = [];
  for (const operation of Object.keys(CATALOGUE) as CataloguedOperation[]) {
    const endpoint = endpointFor(operation, version);
    const base = { operation, title: OPERATION_TITLES[operation], ...endpointFields(endpoint) };
    if (!endpoint) {
      operations.push({ ...base, status: 'not-in-version', findings: [] });
      continue;
    }
    if (endpoint.websocket) {
      operations.push({ ...base, status: 'not-checked', findings: [] });
      continue;
    }
    const { findings, rules: opRules } = checkOperation(reader, operation, endpoint, version);
    // The version is how a participant is known (and its check kept): it is always asked.
    if (opRules && operation !== 'version') rules.set(operation, opRules);
    operations.push({ ...base, status: statusOf(findings), findings });
  }
  const used = new Set(Object.keys(CATALOGUE).flatMap((op) => allForms(op as CataloguedOperation).map((e) => `${e.method} ${pathShape(e.path)}`)));
  const unused = reader.endpoints().filter((e) => !used.has(`${e.method} ${pathShape(e.path)}`));
  const report = finish(
    { version, releaseLine: lineOf(version), ...notice(version), source: { kind: 'participant-spec', ...(reader.version ? { documentVersion: reader.version } : {}) }, operations, unused },
    operations.flatMap((o) => o.findings),
    false,
  );
  const scopes = scopeRequirementsOf(document);
  return { report, rules, ...(scopes ? { scopes } : {}) };
}

function finish(r: Omit<CompatibilityReport, 'summary' | 'severity'>, findings: CompatibilityFinding[], unknownVersionTableOnly: boolean): CompatibilityReport {
  const withSeverity = { ...r, severity: severityOf(findings, unknownVersionTableOnly) };
  return { ...withSeverity, summary: summaryLine(withSeverity) };
}

function notice(version: string): { versionNotice?: string } {
  const n = unknownVersionNotice(version);
  return n ? { versionNotice: n } : {};
}

function endpointFields(endpoint: Endpoint | undefined): { method?: string; path?: string } {
  return endpoint ? { method: endpoint.method, path: endpoint.path } : {};
}

/** Every form of an operation in the version table, whatever the version (for "not used yet"). */
function allForms(operation: CataloguedOperation): readonly Endpoint[] {
  return OPERATIONS[operation];
}

// ---------------------------------------------------------------- one operation

interface OperationContext {
  reader: OpenApiReader;
  operation: CataloguedOperation;
  endpoint: Endpoint;
  version: string;
  findings: CompatibilityFinding[];
  positions: Map<string, PositionRule>;
}

function addFinding(ctx: OperationContext, facts: Omit<CompatibilityFinding, 'line' | 'operation' | 'method' | 'path'>): CompatibilityFinding {
  const full = { ...facts, operation: ctx.operation, method: ctx.endpoint.method, path: ctx.endpoint.path };
  const finding = { ...full, line: findingLine(full) };
  ctx.findings.push(finding);
  return finding;
}

function checkOperation(reader: OpenApiReader, operation: CataloguedOperation, endpoint: Endpoint, version: string): { findings: CompatibilityFinding[]; rules?: OperationRules } {
  const ctx: OperationContext = { reader, operation, endpoint, version, findings: [], positions: new Map() };
  const entry: CatalogueEntry = CATALOGUE[operation];
  const { operation: op, methods } = reader.operation(endpoint.method, endpoint.path);
  if (!op) {
    // Served before it was documented (the health checks before 3.5): the version table knows better.
    if (endpoint.documentedSince && !inRange({ since: endpoint.documentedSince }, version)) return { findings: [] };
    const refused = addFinding(ctx, methods.length === 0 ? { kind: 'endpoint-missing', severity: 'error' } : { kind: 'method-missing', severity: 'error', known: methods });
    return { findings: ctx.findings, rules: { refused, positions: ctx.positions } };
  }
  const known = reader.queryParameters(op);
  for (const [name, field] of Object.entries(entry.query ?? {})) {
    if (inRange(field, version) && !known.includes(name)) addFinding(ctx, { kind: 'unknown-query-parameter', severity: 'warning', field: `?${name}` });
  }
  let root: string | undefined;
  let rootMembers: string[] | undefined;
  if (entry.body !== undefined) {
    const content = op.requestBody?.content ?? {};
    const kinds = Object.keys(content);
    if (entry.body === 'bytes') {
      if (kinds.length > 0 && !kinds.some((k) => /octet-stream/.test(k))) addFinding(ctx, { kind: 'body-kind', severity: 'error', known: kinds });
    } else {
      const schema = content['application/json']?.schema;
      if (!schema) addFinding(ctx, { kind: 'body-kind', severity: 'error', known: kinds });
      else {
        root = reader.refName(schema) ?? entry.body.schema;
        rootMembers = [...reader.properties(schema).keys()];
        checkSent(ctx, entry.body.root, schema, root, lenientOf(entry.body.schema, version));
      }
    }
  }
  const answer = okAnswerSchema(op);
  if (entry.answer && answer) {
    // A list answer is named after its elements' schema.
    const elements = entry.answer.items && reader.items(answer);
    if (elements) checkRead(ctx, entry.answer.items!, elements, reader.refName(elements) ?? 'answer[]');
    else checkRead(ctx, entry.answer, answer, reader.refName(answer) ?? 'answer');
  }
  const refused = ctx.findings.find(refusesEveryRequest);
  return { findings: ctx.findings, rules: { ...(refused ? { refused } : {}), positions: ctx.positions, ...(root ? { root } : {}), ...(rootMembers ? { rootMembers } : {}) } };
}

function okAnswerSchema(op: OpenApiOperation): Schema | undefined {
  const ok = op.responses?.['200'] ?? Object.entries(op.responses ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
  return ok?.content?.['application/json']?.schema;
}

/** The fields the version table knows a release's server does not insist on, though its spec says required. */
function lenientOf(schemaName: string, version: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const shapes = REQUEST_SHAPES as Record<string, RequestShape>;
  const walk = (shape: RequestShape, path: string) => {
    const lenient = requiredAt(shape.lenient, version);
    if (lenient.length > 0) out.set(path, lenient);
    for (const [name, member] of Object.entries(shape.fields ?? {})) walk(member, childPath(path, name));
    if (shape.items) walk(shape.items, `${path}[]`);
    if (shape.values) walk(shape.values, childPath(path, '*'));
  };
  if (schemaName in shapes) walk(shapes[schemaName as RequestSchemaName], '');
  return out;
}

/**
 * One position of a body we send, against the participant's schema there: unknown members and
 * cases, enum values, and the members it requires. `at` is the position for people (the root named
 * as the participant names the schema); `relative` its position in the version table's notation.
 */
function checkSent(ctx: OperationContext, field: SentField, schema: Schema | undefined, at: string, lenient: Map<string, readonly string[]>, relative = ''): void {
  const { reader, version } = ctx;
  if (field.opaque || reader.isOpen(schema)) return;
  const rule: PositionRule = {};
  if (field.values) {
    const known = reader.enumValues(schema);
    if (known) {
      rule.values = known;
      for (const value of field.values) if (!known.includes(value)) addFinding(ctx, { kind: 'enum-value', severity: 'error', field: at, value, known });
    }
  }
  if (field.items) {
    const items = reader.items(schema);
    if (items) checkSent(ctx, field.items, items, `${at}[]`, lenient, `${relative}[]`);
  }
  if (field.entries) {
    const values = reader.mapValues(schema);
    if (values) checkSent(ctx, field.entries, values, childPath(at, '*'), lenient, childPath(relative, '*'));
  }
  if (field.fields) {
    const members = reader.properties(schema);
    const variant = reader.isVariant(schema);
    if (variant) rule.cases = [...members.keys()];
    for (const [name, member] of Object.entries(field.fields)) {
      if (!inRange(member, version)) continue;
      const memberSchema = members.get(name);
      if (memberSchema) checkSent(ctx, member, memberSchema, childPath(at, name), lenient, childPath(relative, name));
      else if (variant) addFinding(ctx, { kind: 'unknown-case', severity: 'error', field: at, value: name, known: [...members.keys()] });
      else if (!member.ifDeclared) addFinding(ctx, { kind: 'unknown-field', severity: 'warning', field: childPath(at, name) });
    }
    const excused = lenient.get(relative) ?? [];
    const required = reader.required(schema).filter((name) => !excused.includes(name));
    if (required.length > 0) rule.required = required;
    for (const name of required) {
      const member = field.fields[name];
      if (!member || !inRange(member, version)) addFinding(ctx, { kind: 'required-field', severity: 'error', field: childPath(at, name) });
      else if (!sentAlways(member, version) && !member.file) addFinding(ctx, { kind: 'required-field', severity: 'warning', field: childPath(at, name), sentSometimes: true });
    }
  }
  if (rule.required || rule.values || rule.cases) ctx.positions.set(at, rule);
}

/** One position of an answer a decoder reads, against the participant's schema: every member we read must be declared. */
function checkRead(ctx: OperationContext, field: ReadField, schema: Schema | undefined, at: string): void {
  const { reader, version } = ctx;
  if (field.opaque || reader.isOpen(schema)) return;
  if (field.items) {
    const items = reader.items(schema);
    if (items) checkRead(ctx, field.items, items, `${at}[]`);
  }
  if (field.entries) {
    const values = reader.mapValues(schema);
    if (values) checkRead(ctx, field.entries, values, childPath(at, '*'));
  }
  if (!field.fields) return;
  const members = reader.properties(schema);
  const ours = Object.keys(field.fields);
  const theirs = [...members.keys()].filter((name) => !ours.includes(name));
  for (const [name, member] of Object.entries(field.fields)) {
    if (!inRange(member, version)) continue;
    const memberSchema = members.get(name);
    if (memberSchema) checkRead(ctx, member, memberSchema, childPath(at, name));
    else {
      const renamedTo = closestName(name, theirs) ?? theirs.find((t) => nameDistance(t, name) === 0);
      addFinding(ctx, { kind: 'answer-field', severity: 'warning', field: childPath(at, name), ...(renamedTo ? { renamedTo } : {}) });
    }
  }
}
