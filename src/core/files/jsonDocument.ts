/**
 * A parsed JSON file with the position bookkeeping diagnostics need: strict syntax errors,
 * JSON-pointer → node lookup, and offset → line/column conversion (index built once, on demand).
 */
import { getNodePath, parseTree, printParseErrorCode, visit, type Node, type ParseError, type ParseOptions } from 'jsonc-parser';
import { joinPointer, pointerSegments } from '../jsonPointer';

export interface Range {
  offset: number;
  length: number;
}

export interface SyntaxProblem extends Range {
  message: string;
  /** Set when the text is well-formed JSON that is still refused (too deeply nested). */
  tooDeep?: true;
}

/**
 * Objects and arrays nest at most this deep. No request needs more (Daml values nest at most 100
 * levels), and the parser, the schema validator and JSON.stringify all recurse per level: a file
 * nested thousands deep would exhaust the stack instead of getting a diagnostic.
 */
export const MAX_NESTING = 512;

export interface LineColumn {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (as VS Code counts). */
  column: number;
}

// Canton reads strict JSON: comments and trailing commas are errors, not conveniences.
const STRICT: ParseOptions = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

export class JsonDocument {
  readonly syntaxProblems: SyntaxProblem[];
  /** Whether some object has a key twice (`duplicateKeyProblems` says where). */
  readonly hasDuplicateKeys: boolean;
  /** Where the number literals are, in the order written (`checkNumbers` reads them as written). */
  readonly numberRanges: readonly Range[];
  private tree: Node | undefined | null = null;
  private lineStarts: number[] | undefined;
  /** Per object node, its properties by key (the last duplicate wins, as in JSON.parse); built lazily. */
  private readonly propertyMaps = new WeakMap<Node, Map<string, Node>>();
  private parsed: unknown;

  constructor(readonly text: string) {
    // Most files are strict JSON: JSON.parse (native, and it does not recurse per level) says so, and
    // one tight scan finds the nesting, the numbers and the duplicate keys. The parser's visit, slower,
    // is for a text with a syntax error to describe (after the scan, which it needs for the nesting).
    let parsed: unknown;
    let strict = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      strict = false;
    }
    const scan = scanText(text);
    if (scan.tooDeepAt !== undefined) {
      this.tree = undefined;
      this.hasDuplicateKeys = false;
      this.numberRanges = [];
      this.syntaxProblems = [{ offset: scan.tooDeepAt, length: 1, tooDeep: true, message: `Nested too deeply: more than ${MAX_NESTING} levels of objects and arrays (the limit; Daml values nest at most 100).` }];
      return;
    }
    if (strict) {
      this.parsed = parsed;
      this.hasDuplicateKeys = scan.keys !== keyCount(parsed);
      this.numberRanges = scan.numberRanges;
      this.syntaxProblems = [];
    } else {
      const byParser = scanByParser(text);
      this.hasDuplicateKeys = byParser.hasDuplicateKeys;
      this.numberRanges = byParser.numberRanges;
      this.syntaxProblems = byParser.syntaxProblems;
    }
  }

  /**
   * The value JSON.parse made of the text (strict JSON only), handed over once: the check that made
   * this document reads it instead of parsing again, and the document then no longer holds it.
   */
  takeValue(): unknown {
    const value = this.parsed;
    this.parsed = undefined;
    return value;
  }

  /** The syntax tree (undefined when the text holds no value, or nests too deeply). */
  get root(): Node | undefined {
    if (this.tree === null) this.tree = parseTree(this.text, [], STRICT);
    return this.tree;
  }

  /** The node at a JSON pointer (`/commands/0/CreateCommand`), or undefined if the document has no such value. */
  nodeAt(pointer: string): Node | undefined {
    let node = this.root;
    for (const segment of pointerSegments(pointer)) {
      if (!node) return undefined;
      if (node.type === 'object') {
        node = this.propertyNode(node, segment)?.children?.[1];
      } else if (node.type === 'array' && /^(0|[1-9][0-9]*)$/.test(segment)) {
        node = node.children?.[Number(segment)];
      } else {
        return undefined;
      }
    }
    return node;
  }

  /** The `property` node (key + value) of `key` in an object node. */
  propertyNode(objectNode: Node, key: string): Node | undefined {
    let map = this.propertyMaps.get(objectNode);
    if (!map) {
      map = new Map();
      for (const property of objectNode.children ?? []) {
        const keyNode = property.children?.[0];
        if (keyNode) map.set(String(keyNode.value), property);
      }
      this.propertyMaps.set(objectNode, map);
    }
    return map.get(key);
  }

  /** Where to point for "something is missing here": the key naming the value if there is one, else its first character. */
  anchorOf(node: Node): Range {
    const parent = node.parent;
    if (parent?.type === 'property' && parent.children?.[1] === node) return rangeOf(parent.children[0]);
    return { offset: node.offset, length: Math.min(1, node.length) };
  }

  position(offset: number): LineColumn {
    const starts = (this.lineStarts ??= lineStartsOf(this.text));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low] + 1 };
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function rangeOf(node: Node): Range {
  return { offset: node.offset, length: node.length };
}

/** The JSON pointer of a node of the tree. */
export function pointerOf(node: Node): string {
  return getNodePath(node).reduce<string>((pointer, segment) => joinPointer(pointer, segment), '');
}

interface TextScan {
  syntaxProblems: SyntaxProblem[];
  hasDuplicateKeys: boolean;
  numberRanges: Range[];
}

/** The syntax errors, duplicate keys and numbers of any text, by the parser's visit (no tree). */
export function scanByParser(text: string): TextScan {
  const errors: ParseError[] = [];
  const numbers: Range[] = [];
  const keys: Array<Set<string>> = [];
  let duplicates = false;
  visit(
    text,
    {
      onObjectBegin: () => void keys.push(new Set()),
      onObjectEnd: () => void keys.pop(),
      onObjectProperty: (name) => {
        const seen = keys[keys.length - 1];
        if (seen.has(name)) duplicates = true;
        else seen.add(name);
      },
      onLiteralValue: (value, offset, length) => void (typeof value === 'number' && numbers.push({ offset, length })),
      onError: (error, offset, length) => void errors.push({ error, offset, length }),
    },
    STRICT,
  );
  return { syntaxProblems: describeSyntaxErrors(text, errors), hasDuplicateKeys: duplicates, numberRanges: numbers };
}

/**
 * One pass over a text, strings skipped: where it first nests deeper than {@link MAX_NESTING} (the scan
 * stops there, as it does at an unterminated string) and, for text JSON.parse accepted, where its number
 * literals are and how many keys it writes (more than the parsed value has means a key written twice
 * in one object, which JSON.parse keeps once).
 */
function scanText(text: string): { keys: number; numberRanges: Range[]; tooDeepAt?: number } {
  const numberRanges: Range[] = [];
  let keys = 0;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) {
      // To the closing quote: the next one not escaped (preceded by an even run of backslashes).
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i < 0) return { keys, numberRanges };
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 92 /* \ */) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      // A string followed by ':' is a key.
      let j = i + 1;
      while (j < n && isJsonSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === 58 /* : */) keys++;
    } else if (ch === 45 /* - */ || (ch >= 48 && ch <= 57)) {
      let j = i + 1;
      while (j < n && isNumberPart(text.charCodeAt(j))) j++;
      numberRanges.push({ offset: i, length: j - i });
      i = j - 1;
    } else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      if (++depth > MAX_NESTING) return { keys, numberRanges, tooDeepAt: i };
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) {
      depth--;
    }
  }
  return { keys, numberRanges };
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Digits, '.', 'e', 'E', '+', '-': what follows the first character of a JSON number. */
function isNumberPart(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/** The keys of every object in a parsed JSON value. */
function keyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += keyCount(value[i]);
    return count;
  }
  for (const key in value) count += 1 + keyCount((value as Record<string, unknown>)[key]);
  return count;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 /* \n */) starts.push(i + 1);
    else if (ch === 13 /* \r */ && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'Invalid symbol: JSON allows only objects, arrays, double-quoted strings, numbers, true, false and null.',
  InvalidNumberFormat: 'Invalid number.',
  PropertyNameExpected: 'Expected a property name in double quotes.',
  ValueExpected: 'Expected a value.',
  ColonExpected: "Expected ':' after the property name.",
  CommaExpected: "Expected ','.",
  CloseBraceExpected: "Expected '}' or ','.",
  CloseBracketExpected: "Expected ']' or ','.",
  EndOfFileExpected: 'Unexpected content after the end of the JSON value.',
  InvalidCommentToken: 'Comments are not allowed: Canton expects strict JSON.',
  UnexpectedEndOfComment: 'Unterminated comment (comments are not allowed in JSON anyway).',
  UnexpectedEndOfString: 'Unterminated string.',
  UnexpectedEndOfNumber: 'Unexpected end of number.',
  InvalidUnicode: 'Invalid \\u escape sequence.',
  InvalidEscapeCharacter: 'Invalid escape character in string.',
  InvalidCharacter: 'Control characters in strings must be escaped (e.g. \\n, \\t).',
};

function describeSyntaxErrors(text: string, errors: ParseError[]): SyntaxProblem[] {
  if (text.trim() === '') return [{ offset: 0, length: 0, message: 'The file is empty: expected a JSON object.' }];
  const problems: SyntaxProblem[] = [];
  const seenOffsets = new Set<number>();
  for (const error of errors) {
    // The parser often reports several errors at one spot (e.g. a trailing comma); the first says it best.
    if (seenOffsets.has(error.offset)) continue;
    seenOffsets.add(error.offset);
    const name = printParseErrorCode(error.error);
    const trailingComma = trailingCommaBefore(text, error.offset, name);
    if (trailingComma >= 0) {
      problems.push({ offset: trailingComma, length: 1, message: 'Trailing commas are not allowed in JSON.' });
    } else {
      problems.push({ ...visibleRange(text, error), message: SYNTAX_MESSAGES[name] ?? `Syntax error (${name}).` });
    }
  }
  return problems;
}

/**
 * `{"a": 1,}` / `[1,]`: the parser reports a missing member at the closing bracket.
 * Returns the offset of the offending comma, or -1 if this error is something else.
 */
function trailingCommaBefore(text: string, offset: number, errorName: string): number {
  if (errorName !== 'PropertyNameExpected' && errorName !== 'ValueExpected') return -1;
  if (text[offset] !== '}' && text[offset] !== ']') return -1;
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return text[i] === ',' ? i : -1;
}

/** Zero-length errors at the end of input are invisible in an editor; point at the last real character instead. */
function visibleRange(text: string, error: ParseError): Range {
  if (error.length > 0 || error.offset === 0) return { offset: error.offset, length: error.length };
  let i = Math.min(error.offset, text.length) - 1;
  while (i > 0 && /\s/.test(text[i])) i--;
  return { offset: i, length: 1 };
}
