/**
 * The YAML parser of participants' API descriptions. A bundle of its own (`dist/yaml.js`, see
 * `scripts/build.mjs`), required on the first description that is not JSON, so that the extension's
 * first use does not load it.
 */
import { Composer, Lexer, LineCounter, Parser, parse, type YAMLError } from 'yaml';

export function parseYaml(text: string): unknown {
  return parse(text, { uniqueKeys: false });
}

/** How long the parse runs, by default, before it lets the event loop take its turn. */
const SLICE_MS = 8;
const LEXEMES_BETWEEN_CLOCK_READS = 500;

/**
 * The same value as {@link parseYaml}, parsed in slices of a few milliseconds with the event loop
 * served between them: a participant's description (200–400 KB of YAML) takes 0.3–1.5 s to parse on
 * a busy machine, which in one piece would stall the extension host. Lexing and parsing (most of the
 * time) are sliced through yaml's streaming `Lexer`/`Parser`; composing the one document is a single
 * step of a few tens of milliseconds. Fails as `parse` does (the document's first error); a signal
 * aborted between slices stops it with its reason. `sliceMs` 0 yields at every clock read, which
 * makes the number of turns independent of the machine's speed.
 */
export async function parseYamlInSlices(text: string, signal?: AbortSignal, sliceMs = SLICE_MS): Promise<unknown> {
  const lines = new LineCounter();
  const parser = new Parser(lines.addNewLine);
  lines.addNewLine(0);
  const tokens: Parameters<Composer['compose']>[0] extends Iterable<infer T> ? T[] : never = [];
  let sliceStart = performance.now();
  let sinceClock = 0;
  for (const lexeme of new Lexer().lex(text, false)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (++sinceClock < LEXEMES_BETWEEN_CLOCK_READS) continue;
    sinceClock = 0;
    if (performance.now() - sliceStart < sliceMs) continue;
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    sliceStart = performance.now();
  }
  for (const token of parser.end()) tokens.push(token);
  const composer = new Composer({ uniqueKeys: false });
  const [doc] = [...composer.compose(tokens, true, text.length)];
  if (!doc) return null;
  const error: YAMLError | undefined = doc.errors[0];
  if (error) {
    const at = lines.linePos(error.pos[0]);
    error.message = `${error.message.split('\n')[0]} at line ${at.line}, column ${at.col}`;
    throw error;
  }
  return doc.toJS();
}
