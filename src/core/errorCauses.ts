/**
 * Where in a commands file the cause of a Canton rejection is written: one table from error codes to
 * the part of the file they name, read by the editor (a diagnostic at the cause), the CLI
 * (`file:line:col`) and the Failed Commands view (Go to Cause).
 *
 * The values come from the failure itself (its resources and metadata, as Canton's error classes put
 * them: `ErrorResource.ContractId` for CONTRACT_NOT_FOUND and CONTRACT_NOT_ACTIVE, `TemplateId` and
 * `ContractKey` for key errors, in CommandExecutionErrors.scala / ConsistencyErrors.scala of
 * digital-asset/canton, ledger-common, release lines 3.3–3.6), else from the ids written in its cause
 * text. The file is searched by value, so a file edited since still gets the right place; when the
 * value is not in it, the field the code names is marked, and failing that the command id.
 */
import type { Node } from 'jsonc-parser';
import type { CantonFailure } from './cantonFailure';
import { KNOWN_ERROR_CODES } from './errorCatalog';
import { JsonDocument, pointerOf, type LineColumn } from './files/jsonDocument';
import { contractIdsIn } from './models/contracts';

/** The parts of a commands file a failure can point at. */
export type CauseSite =
  /** An ExerciseCommand's `contractId` (or any contract id the commands carry). */
  | 'contract-id'
  /** A contract key: an ExerciseByKeyCommand's `contractKey`. */
  | 'contract-key'
  /** An `actAs` entry (the missing authorizer), else a `readAs` one. */
  | 'act-as'
  /** A `templateId`. */
  | 'template'
  /** An exercise's `choice`. */
  | 'choice'
  /** A field inside `createArguments` / `choiceArgument`. */
  | 'argument'
  /** The `commandId`. */
  | 'command-id'
  /** The `deduplicationPeriod`. */
  | 'deduplication'
  /** `minLedgerTimeAbs` / `minLedgerTimeRel`. */
  | 'min-ledger-time'
  /** The request field the cause names (`Invalid field deduplication_period`). */
  | 'named-field';

export interface CauseRule {
  site: CauseSite;
  /** Resource or metadata keys whose value is the thing to find (first found wins). */
  keys?: readonly string[];
}

const CONTRACT: CauseRule = { site: 'contract-id', keys: ['CONTRACT_ID', 'CID'] };
const KEY: CauseRule = { site: 'contract-key', keys: ['TEMPLATE_ID'] };
const TEMPLATE: CauseRule = { site: 'template', keys: ['TEMPLATE_ID', 'INTERFACE_ID', 'PACKAGE', 'PACKAGE_NAME'] };
const ARGUMENT: CauseRule = { site: 'argument' };

/** Every catalogued code that names something a commands file holds, and where. */
export const ERROR_CAUSES: Readonly<Record<string, CauseRule>> = {
  CONTRACT_NOT_FOUND: CONTRACT,
  CONTRACT_NOT_ACTIVE: CONTRACT,
  WRONGLY_TYPED_CONTRACT: CONTRACT,
  CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE: CONTRACT,
  CONTRACT_KEY_NOT_FOUND: KEY,
  DUPLICATE_CONTRACT_KEY: KEY,
  INCONSISTENT_CONTRACT_KEY: KEY,
  DAML_AUTHORIZATION_ERROR: { site: 'act-as', keys: ['PARTY', 'PARTIES'] },
  NA: { site: 'act-as' },
  NO_SYNCHRONIZER_FOR_SUBMISSION: { site: 'act-as', keys: ['PARTY', 'PARTIES'] },
  TEMPLATES_OR_INTERFACES_NOT_FOUND: TEMPLATE,
  PACKAGE_NAMES_NOT_FOUND: TEMPLATE,
  PACKAGE_SELECTION_FAILED: TEMPLATE,
  PACKAGE_NOT_FOUND: TEMPLATE,
  NOT_VALID_UPGRADE_PACKAGE: TEMPLATE,
  UNSUPPORTED_BY_DEMO_PARTICIPANT: { site: 'choice' },
  DAML_INTERPRETATION_ERROR: { site: 'choice' },
  INTERPRETATION_USER_ERROR: { site: 'choice' },
  UNHANDLED_EXCEPTION: { site: 'choice' },
  COMMAND_PREPROCESSING_FAILED: ARGUMENT,
  TEMPLATE_PRECONDITION_VIOLATED: ARGUMENT,
  DAML_INTERPRETER_INVALID_ARGUMENT: ARGUMENT,
  DUPLICATE_COMMAND: { site: 'command-id' },
  INVALID_DEDUPLICATION_PERIOD: { site: 'deduplication' },
  INVALID_FIELD: { site: 'named-field' },
  MISSING_FIELD: { site: 'named-field' },
  INVALID_ARGUMENT: { site: 'named-field' },
};

/**
 * Catalogued codes that name nothing in a commands file (offsets, uploads, vetting, users, the
 * participant's own state): listed so that a new catalog entry is a decision, checked by a test.
 */
export const CODES_WITHOUT_FILE_CAUSE: readonly string[] = [
  'CONTRACT_EVENTS_NOT_FOUND',
  'INVALID_DAR',
  'DAR_PARSE_ERROR',
  'KNOWN_DAR_VERSION',
  'KNOWN_PACKAGE_VERSION',
  'DAR_NOT_VALID_UPGRADE',
  'OFFSET_AFTER_LEDGER_END',
  'OFFSET_OUT_OF_RANGE',
  'NEGATIVE_OFFSET',
  'NON_POSITIVE_OFFSET',
  'PARTY_ALREADY_EXISTS',
  'PARTICIPANT_PRUNED_DATA_ACCESSED',
  'UPDATE_NOT_FOUND',
  'COMPLETION_NOT_FOUND',
  'USER_NOT_FOUND',
  'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
  'TOPOLOGY_DEPENDENCIES_NOT_VETTED',
  'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
  'TOPOLOGY_SERIAL_MISMATCH',
  'FAILED_TO_PREPARE_TRANSACTION',
  // The answer of the preferred-packages query, never of a submission: the pre-flight places it itself.
  'NO_PREFERRED_PACKAGES_FOUND',
  'LOCAL_VERDICT_LOCKED_CONTRACTS',
  'REQUEST_DEADLINE_EXCEEDED',
  'LEDGER_API_INTERNAL_ERROR',
];

/** Catalogued codes neither list decides on (a test keeps this empty). */
export function undecidedCatalogCodes(): string[] {
  return Object.keys(KNOWN_ERROR_CODES).filter((c) => !(c in ERROR_CAUSES) && !CODES_WITHOUT_FILE_CAUSE.includes(c));
}

export interface CauseLocation extends LineColumn {
  /** Offsets into the text. */
  offset: number;
  length: number;
  endLine: number;
  endColumn: number;
  /** JSON pointer of the marked value. */
  pointer: string;
  /**
   * `value`: the value the failure names was found; `field`: the field the code names (the value is
   * not in the file, or the failure names none); `command`: the code names nothing in the file, or
   * the file has no such field: the command id (or the commands) is marked.
   */
  match: 'value' | 'field' | 'command';
  /** What is marked, for people: "contract id 00ab…", "actAs party Alice::12…". */
  what: string;
}

/**
 * Where `failure`'s cause is in the commands file `text` (a bare JsCommands or a whole submit
 * request). Undefined only when the text is not a JSON object (then there is nothing to mark).
 */
export function locateCause(failure: CantonFailure, text: string): CauseLocation | undefined {
  const doc = new JsonDocument(text);
  const root = doc.root;
  if (root?.type !== 'object') return undefined;
  const wrapped = doc.propertyNode(root, 'commands')?.children?.[1];
  const commands = wrapped?.type === 'object' ? wrapped : root;
  const rule = failure.code ? ERROR_CAUSES[failure.code] : undefined;
  const found = rule ? findSite(doc, commands, rule, failure) : undefined;
  if (found) return located(doc, found.node, found.match, found.what);
  const commandId = doc.propertyNode(commands, 'commandId')?.children?.[1];
  if (commandId) return located(doc, commandId, 'command', 'commandId');
  const list = doc.propertyNode(commands, 'commands');
  return list ? located(doc, list.children?.[0] ?? list, 'command', 'commands') : undefined;
}

interface Found {
  node: Node;
  match: 'value' | 'field';
  what: string;
}

function findSite(doc: JsonDocument, commands: Node, rule: CauseRule, f: CantonFailure): Found | undefined {
  const named = namedValues(rule, f);
  const list = doc.propertyNode(commands, 'commands')?.children?.[1];
  const props = (key: string, under: Node | undefined = list) => propertyValues(under, key);
  switch (rule.site) {
    case 'contract-id': {
      const ids = [...named, ...contractIdsIn(f.cause)];
      const byValue = findString(list, (s) => ids.includes(s));
      if (byValue) return { node: byValue, match: 'value', what: `contract id ${byValue.value}` };
      return field(props('contractId')[0], 'contractId');
    }
    case 'contract-key': {
      const key = props('contractKey')[0];
      if (key) return { node: key, match: 'field', what: 'contractKey' };
      return templateSite(props('templateId'), named, f);
    }
    case 'act-as': {
      const actAs = doc.propertyNode(commands, 'actAs')?.children?.[1];
      const readAs = doc.propertyNode(commands, 'readAs')?.children?.[1];
      const parties = [...actAs?.children ?? [], ...readAs?.children ?? []];
      // Daml's "requires authorizers A, but only B were given" names the missing party first: only it is the cause.
      const required = /requires authorizers (.+?),? but only/.exec(f.cause)?.[1];
      const wanted = (party: string) => named.includes(party) || (required !== undefined ? mentions(required, party) : mentions(f.cause, party));
      const byValue = parties.find((p) => p.type === 'string' && wanted(p.value as string));
      if (byValue) return { node: byValue, match: 'value', what: `party ${byValue.value}` };
      return field(actAs, 'actAs');
    }
    case 'template':
      return templateSite(props('templateId'), named, f);
    case 'choice': {
      const choices = props('choice');
      const byValue = choices.find((c) => c.type === 'string' && mentions(f.cause, c.value as string, /\w/));
      if (byValue) return { node: byValue, match: 'value', what: `choice ${byValue.value}` };
      if (choices[0]) return field(choices[0], 'choice');
      return templateSite(props('templateId'), named, f);
    }
    case 'argument': {
      const args = [...props('createArguments'), ...props('choiceArgument')];
      for (const name of quotedNames(f.cause)) {
        for (const arg of args) {
          const key = findKey(arg, name);
          if (key) return { node: key, match: 'value', what: `argument field ${name}` };
        }
      }
      return field(args[0], args[0] && args[0].parent?.children?.[0]?.value === 'choiceArgument' ? 'choiceArgument' : 'createArguments');
    }
    case 'command-id':
      return field(doc.propertyNode(commands, 'commandId')?.children?.[1], 'commandId');
    case 'deduplication':
      return field(doc.propertyNode(commands, 'deduplicationPeriod')?.children?.[1], 'deduplicationPeriod');
    case 'min-ledger-time': {
      const abs = doc.propertyNode(commands, 'minLedgerTimeAbs')?.children?.[1];
      return abs ? field(abs, 'minLedgerTimeAbs') : field(doc.propertyNode(commands, 'minLedgerTimeRel')?.children?.[1], 'minLedgerTimeRel');
    }
    case 'named-field': {
      for (const name of fieldNamesIn(f.cause)) {
        const at = doc.propertyNode(commands, name)?.children?.[1] ?? findKey(list, name);
        if (at) return { node: at, match: 'value', what: name };
      }
      return undefined;
    }
  }
}

function field(node: Node | undefined, what: string): Found | undefined {
  return node ? { node, match: 'field', what } : undefined;
}

/** A templateId naming the template of the failure: the same module and entity (its package may be written by name or id). */
function templateSite(templates: Node[], named: string[], f: CantonFailure): Found | undefined {
  const wanted = [...named, ...idsInText(f.cause)].map(qualifiedName).filter((n) => n !== '');
  const byValue = templates.find((t) => t.type === 'string' && wanted.includes(qualifiedName(t.value as string)));
  if (byValue) return { node: byValue, match: 'value', what: `templateId ${byValue.value}` };
  const byPackage = templates.find((t) => t.type === 'string' && named.some((n) => !n.includes(':') && (t.value as string).replace(/^#/, '').startsWith(`${n}:`)));
  if (byPackage) return { node: byPackage, match: 'value', what: `templateId ${byPackage.value}` };
  return field(templates[0], 'templateId');
}

/** `Module:Entity` of a template id in either form (`#pkg:M:E`, `<hex>:M:E`); '' when it has no module. */
function qualifiedName(id: string): string {
  const parts = id.split(':');
  return parts.length >= 3 ? parts.slice(-2).join(':') : '';
}

/** Template ids written in a cause text (`…:Iou:Iou`). */
function idsInText(text: string): string[] {
  return [...text.matchAll(/#?[\w.-]+:[\w.]+:[\w.]+/g)].map((m) => m[0]);
}

/**
 * The contracts a failure's cause is (CONTRACT_NOT_FOUND, CONTRACT_NOT_ACTIVE, …): the ids its
 * resources and metadata name, else those written in its cause text; none for other failures.
 */
export function causeContractIds(f: CantonFailure): string[] {
  const rule = f.code ? ERROR_CAUSES[f.code] : undefined;
  if (rule?.site !== 'contract-id') return [];
  return [...new Set([...namedValues(rule, f), ...contractIdsIn(f.cause)])];
}

function namedValues(rule: CauseRule, f: CantonFailure): string[] {
  const out: string[] = [];
  for (const key of rule.keys ?? []) {
    for (const [k, v] of f.resources) if (k === key) out.push(v);
    const m = f.metadata[key] ?? f.metadata[key.toLowerCase()];
    if (m !== undefined) out.push(m);
  }
  return out;
}

/** Whether `text` names `value` as a whole word; `word` is what may not touch it (a party holds `:` and `-`, a choice name does not). */
function mentions(text: string, value: string, word = /[\w:-]/): boolean {
  if (value === '') return false;
  const at = text.indexOf(value);
  if (at < 0) return false;
  const before = text[at - 1];
  const after = text[at + value.length];
  return !(before && word.test(before)) && !(after && word.test(after));
}

/** Names in quotes or backticks in a cause (`Missing non-optional field "amount"`, `Unexpected fields: extra`). */
function quotedNames(text: string): string[] {
  const names = [...text.matchAll(/["`'](\w+)["`']/g)].map((m) => m[1]);
  const unexpected = /Unexpected fields?:?\s+([\w, ]+)/i.exec(text);
  if (unexpected) names.push(...unexpected[1].split(/[,\s]+/).filter(Boolean));
  const missing = /field (\w+)/gi;
  for (const m of text.matchAll(missing)) names.push(m[1]);
  return names;
}

/** Request field names in a cause, snake_case turned into the JSON's camelCase (`deduplication_period` → `deduplicationPeriod`). */
function fieldNamesIn(text: string): string[] {
  const names = [...text.matchAll(/(?:field|fields?:)\s+`?([a-z][a-z0-9_]*)`?/gi)].map((m) => m[1]);
  return names.map((n) => n.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
}

/** The values (not the property nodes) of every `key` property under `node`, in document order. */
function propertyValues(node: Node | undefined, key: string): Node[] {
  const out: Node[] = [];
  const walk = (n: Node) => {
    if (n.type === 'property') {
      if (n.children?.[0]?.value === key && n.children[1]) out.push(n.children[1]);
    }
    for (const c of n.children ?? []) walk(c);
  };
  if (node) walk(node);
  return out;
}

/** The first property key node named `name` under `node`. */
function findKey(node: Node | undefined, name: string): Node | undefined {
  if (!node) return undefined;
  if (node.type === 'property' && node.children?.[0]?.value === name) return node.children[0];
  for (const c of node.children ?? []) {
    const found = findKey(c, name);
    if (found) return found;
  }
  return undefined;
}

/** The first string value under `node` that `test` accepts (keys are not values). */
function findString(node: Node | undefined, test: (s: string) => boolean): Node | undefined {
  if (!node) return undefined;
  if (node.type === 'string' && !(node.parent?.type === 'property' && node.parent.children?.[0] === node) && test(node.value as string)) return node;
  for (const c of node.children ?? []) {
    const found = findString(c, test);
    if (found) return found;
  }
  return undefined;
}

function located(doc: JsonDocument, node: Node, match: CauseLocation['match'], what: string): CauseLocation {
  const start = doc.position(node.offset);
  const end = doc.position(node.offset + node.length);
  return { offset: node.offset, length: node.length, line: start.line, column: start.column, endLine: end.line, endColumn: end.column, pointer: pointerOf(node), match, what };
}
