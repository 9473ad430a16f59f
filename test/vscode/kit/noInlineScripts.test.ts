/**
 * No page the glue writes runs inline code: in every string and template of `src/vscode`, each
 * `<script>` tag carries the nonce and a `src` and has nothing between its tags, and no element has an
 * inline event handler (`onclick="…"`). A page's code is a bundle of its own (`src/webview/<name>`),
 * written by the webview host (`src/vscode/kit/webviewHost.ts`).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');
const GLUE = join(ROOT, 'src', 'vscode');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.[cm]?[tj]s$/.test(name) ? [p] : [];
  });
}

/** The text of every string and template literal of a source (a template's substitutions as `${}`), comments left out. */
function literalsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node)) found.push(node.head.text + node.templateSpans.map((s) => '${}' + s.literal.text).join(''));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What is wrong with the pages a source writes: one line per inline script or handler. */
function inlineCode(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const literal of literalsOf(file, text)) {
    for (const m of literal.matchAll(/<script\b([^>]*)>([\s\S]*?)(?:<\/script\s*>|$)/gi)) {
      const [tag, attributes, body] = m;
      if (!/\snonce="\$\{\}"/.test(attributes)) problems.push(`${tag}: no nonce`);
      if (!/\ssrc="[^"]+"/.test(attributes)) problems.push(`${tag}: no src`);
      if (body.trim() !== '') problems.push(`${tag}: inline code`);
    }
    for (const m of literal.matchAll(/<[a-z][^>]*\son[a-z]+\s*=/gi)) problems.push(`${m[0]}: an inline event handler`);
  }
  return problems;
}

describe('no inline script in the glue', () => {
  it('finds an inline script, a script without the nonce or a src, and an inline handler (the check can fail)', () => {
    const sample = [
      'const a = `<script nonce="${n}">alert(1)</script>`;',
      "const b = '<script src=\"x.js\"></script>';",
      'const c = `<script nonce="${n}" src="${u}"></script>`;',
      'const d = `<button onclick="go()">Go</button>`;',
      '// <script>in a comment</script> is not a page',
    ].join('\n');
    assert.deepEqual(inlineCode('sample.ts', sample), [
      '<script nonce="${}">alert(1)</script>: no src',
      '<script nonce="${}">alert(1)</script>: inline code',
      '<script src="x.js"></script>: no nonce',
      '<button onclick=: an inline event handler',
    ]);
  });

  it('src/vscode writes no inline script: every script tag has the nonce and a src', () => {
    const found = sources(GLUE).flatMap((f) => inlineCode(f, readFileSync(f, 'utf8')).map((p) => `${relative(ROOT, f)}: ${p}`));
    assert.deepEqual(found, []);
    // The host is where pages are written, and it does write one script tag.
    assert.ok(readFileSync(join(GLUE, 'kit', 'webviewHost.ts'), 'utf8').includes('<script nonce="${nonce}" src="${script}"></script>'));
  });
});
