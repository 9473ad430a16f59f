/**
 * Numbers checked as written, not as JSON.parse reads them: an integer field given `1e-400` (read as
 * 0) or `9223372036854775808` (read as 2^63, which passes any `maximum` written as a double) is an
 * error; a number a double cannot hold is sent exactly as written (`ExactNumber`), with a warning
 * because other JSON tools would change it.
 */
import type { ValidateFunction } from 'ajv';
import type { Node } from 'jsonc-parser';
import { ExactNumber, isWholeNumber, parseDecimal, survivesDoubles, wholeNumberValue, type Decimal } from '../json';
import { pointerSegments } from '../jsonPointer';
import { pointerOf, rangeOf, type JsonDocument } from './jsonDocument';
import type { ProblemDraft } from './problems';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

interface Written {
  node: Node;
  pointer: string;
  text: string;
}

export interface NumberCheck {
  problems: ProblemDraft[];
  /** `value` with every number a double cannot hold replaced by its `ExactNumber` (the same object when there is none). */
  exactValue: unknown;
}

export function checkNumbers(doc: JsonDocument, value: unknown, validate: ValidateFunction): NumberCheck {
  // Most files have no number worth a look: then the tree (for pointers and ranges) is not needed.
  if (!doc.numberRanges.some((r) => worthALook(doc.text.slice(r.offset, r.offset + r.length)))) return { problems: [], exactValue: value };
  const inexact: Written[] = [];
  const suspects: Written[] = [];
  for (const node of numberNodes(doc)) {
    const text = doc.text.slice(node.offset, node.offset + node.length);
    const written = parseDecimal(text);
    if (!written) continue;
    const site = { node, pointer: pointerOf(node), text };
    if (!survivesDoubles(text)) inexact.push(site);
    if (suspect(text, written)) suspects.push(site);
  }
  if (inexact.length === 0 && suspects.length === 0) return { problems: [], exactValue: value };

  const integerFields = integerTypedPointers(value, validate, suspects);
  const problems: ProblemDraft[] = [];
  for (const s of suspects) {
    if (!integerFields.has(s.pointer)) continue;
    const whole = isWholeNumber(parseDecimal(s.text)!);
    problems.push({
      path: s.pointer,
      severity: 'error',
      code: whole ? 'integer-range' : 'not-an-integer',
      message: whole
        ? `${s.text} is out of range: no 64-bit integer holds it (at most ${INT64_MAX}).`
        : `${s.text} is not a whole number (JSON parsers read it as ${Number(s.text)}): this field takes an integer.`,
      ...rangeOf(s.node),
    });
  }
  const reported = new Set(problems.map((p) => p.path));
  for (const s of inexact) {
    if (reported.has(s.pointer)) continue;
    problems.push({
      path: s.pointer,
      severity: 'warning',
      code: 'inexact-number',
      message:
        `${s.text} is more precise than a JSON parser using doubles keeps (JavaScript, jq read it as ${Number(s.text)}). ` +
        'It is sent exactly as written; in Daml values, write Int64 and Numeric as strings.',
      ...rangeOf(s.node),
    });
  }
  return { problems, exactValue: inexact.length === 0 ? value : withExactNumbers(value, inexact) };
}

function outOfInt64(n: bigint): boolean {
  return n > INT64_MAX || n < INT64_MIN;
}

/**
 * A double that is whole although the text is not, or a whole number no int64 holds: only the text
 * tells. (Other non-whole numbers are already integer type errors for the schema.)
 */
function suspect(text: string, written: Decimal): boolean {
  const misread = !isWholeNumber(written) && Number.isInteger(Number(text));
  return misread || (isWholeNumber(written) && outOfInt64(wholeNumberValue(written)));
}

/** A number that a double does not hold, or that may be misread as an integer. */
function worthALook(text: string): boolean {
  const written = parseDecimal(text);
  return written !== undefined && (!survivesDoubles(text) || suspect(text, written));
}

/** The number literals that are part of the parsed value (under a repeated key only the last counts, as in JSON.parse). */
function* numberNodes(doc: JsonDocument): Generator<Node> {
  const stack: Node[] = doc.root ? [doc.root] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'number') yield node;
    else if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key && value && doc.propertyNode(node, String(key.value)) === property) stack.push(value);
      }
    } else if (node.children) stack.push(...node.children);
  }
}

/**
 * Which of `sites` the schema types as integers: each is replaced by 0.5 and the validator asked
 * again, so the schema's own structure (refs, oneOf, variants) decides, not a second reading of it.
 */
function integerTypedPointers(value: unknown, validate: ValidateFunction, sites: Written[]): Set<string> {
  if (sites.length === 0) return new Set();
  const probe = structuredClone(value);
  const pointers = new Set(sites.map((s) => s.pointer));
  for (const p of pointers) setAt(probe, p, 0.5);
  validate(probe);
  const typed = new Set<string>();
  for (const e of validate.errors ?? []) {
    const wanted = (e.params as { type?: string | string[] }).type;
    if (e.keyword === 'type' && pointers.has(e.instancePath) && [wanted].flat().includes('integer')) typed.add(e.instancePath);
  }
  return typed;
}

function withExactNumbers(value: unknown, sites: Written[]): unknown {
  const copy = structuredClone(value);
  for (const s of sites) {
    if (s.pointer === '') return new ExactNumber(s.text);
    setAt(copy, s.pointer, new ExactNumber(s.text));
  }
  return copy;
}

/** Sets the value at a JSON pointer that exists in `root` (the pointer came from the same document). */
function setAt(root: unknown, pointer: string, v: unknown): void {
  const segments = pointerSegments(pointer);
  const last = segments.pop();
  if (last === undefined) return;
  let node = root as Record<string, unknown>;
  for (const s of segments) node = node[s] as Record<string, unknown>;
  node[last] = v;
}
