import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resolveSpecifier, sources, specifiersOf } from '../support/imports';

const ROOT = join(__dirname, '..', '..');
const VSCODE_IMPORT = /(?:from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/;

type ImportGraph = Map<string, string[]>;

/** Every source file under `dir` with the source files it imports (packages left out). */
function importGraph(dir: string): ImportGraph {
  return new Map(sources(dir).map((f) => [f, [...new Set(specifiersOf(f).map((s) => resolveSpecifier(f, s)).filter((p): p is string => p !== undefined))]]));
}

/**
 * The import cycles of a graph: one per group of files that all reach each other (Tarjan's strongly
 * connected components), each given as one closed path through its files, so that a failure names the
 * imports to cut. A file that imports itself is a cycle too.
 */
function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return components.map((c) => closedPath(graph, new Set(c)));
}

/** A shortest path from the component's first file (in sort order) back to itself, within the component. */
function closedPath(graph: ImportGraph, component: Set<string>): string[] {
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const between: string[] = [];
        for (let at = v; at !== start; at = cameFrom.get(at)!) between.unshift(at);
        return [start, ...between, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const rel = (f: string) => relative(ROOT, f).split(sep).join('/');

describe('layering', () => {
  for (const layer of ['src/core', 'src/participant', 'src/cli', 'src/webview']) {
    it(`${layer} does not import vscode`, () => {
      const offenders = sources(join(ROOT, layer)).filter((f) => VSCODE_IMPORT.test(readFileSync(f, 'utf8')));
      assert.deepEqual(offenders.map((f) => relative(ROOT, f)), []);
    });
  }
  it('the check itself recognises a vscode import', () => {
    assert.ok(VSCODE_IMPORT.test(`import * as vscode from 'vscode';`));
    assert.ok(VSCODE_IMPORT.test(`const v = require("vscode")`));
    assert.ok(!VSCODE_IMPORT.test(`import x from './vscode-like';`));
  });

  const graph = importGraph(join(ROOT, 'src'));

  it('src/core imports nothing from src/participant, src/cli or src/vscode', () => {
    const above = ['src/participant/', 'src/cli/', 'src/vscode/'];
    const offenders = [...graph]
      .filter(([from]) => rel(from).startsWith('src/core/'))
      .flatMap(([from, to]) => to.filter((t) => above.some((layer) => rel(t).startsWith(layer))).map((t) => `${rel(from)} -> ${rel(t)}`));
    assert.deepEqual(offenders, []);
  });

  it('src/webview (code that runs in a webview) imports only src/core, and no Node module', () => {
    const offenders = [...graph]
      .filter(([from]) => rel(from).startsWith('src/webview/'))
      .flatMap(([from, to]) => to.filter((t) => !rel(t).startsWith('src/core/') && !rel(t).startsWith('src/webview/')).map((t) => `${rel(from)} -> ${rel(t)}`));
    assert.deepEqual(offenders, []);
    const node = sources(join(ROOT, 'src', 'webview')).filter((f) => /from\s+['"]node:|require\(\s*['"]node:/.test(readFileSync(f, 'utf8')));
    assert.deepEqual(node.map(rel), []);
    assert.ok(graph.has(join(ROOT, 'src', 'webview', 'graph', 'main.ts')), 'the webview sources were read');
  });

  it('src has no import cycle', () => {
    // Each entry is one cycle as a path of imports; cut one of its imports (move what both need into a lower module).
    assert.deepEqual(importCycles(graph).map((cycle) => cycle.map(rel).join(' -> ')), []);
  });

  describe('the checks themselves', () => {
    it('read every kind of import, type-only ones included', () => {
      const text = [
        `import a from './a';`,
        `import type { B } from "./b";`,
        `import './c';`,
        `export { d } from './d';`,
        `export * from './e';`,
        `import f = require('./f');`,
        `const g = require('./g');`,
        `type H = typeof import('./h');`,
        `const i = import('./i');`,
        `import {\n  j,\n  k,\n} from './jk';`,
        `// import z from './commented';`,
        `const s = "from './in-a-string'";`,
      ].join('\n');
      assert.deepEqual(specifiersOf('/x/m.ts', text), ['./a', './b', './c', './d', './e', './f', './g', './h', './i', './jk']);
    });

    it('resolve a relative import to its file or index, and leave packages out', () => {
      const files = new Set(['/x/a.ts', '/x/dir/index.ts']);
      const exists = (p: string) => files.has(p);
      assert.equal(resolveSpecifier('/x/m.ts', './a', exists), '/x/a.ts');
      assert.equal(resolveSpecifier('/x/m.ts', './dir', exists), '/x/dir/index.ts');
      assert.equal(resolveSpecifier('/x/m.ts', 'node:fs', exists), undefined);
      assert.equal(resolveSpecifier('/x/m.ts', './missing', exists), undefined);
    });

    it('find each cycle of a made-up graph as a closed path, and none in a graph without one', () => {
      const graph: ImportGraph = new Map([
        ['a', ['b']],
        ['b', ['c', 'd']],
        ['c', ['a']],
        ['d', ['e']],
        ['e', []],
        ['f', ['f']],
        ['g', ['h']],
        ['h', ['g', 'e']],
      ]);
      const cycles = importCycles(graph).map((c) => c.join(' -> ')).sort();
      assert.deepEqual(cycles, ['a -> b -> c -> a', 'f -> f', 'g -> h -> g']);
      assert.deepEqual(importCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]])), []);
    });

    it('see the imports of src (a graph of the real files, not an empty one)', () => {
      const features = [...graph].find(([from]) => rel(from) === 'src/features.ts');
      assert.ok(features && features[1].length > 3, 'src/features.ts imports several modules');
    });
  });
});
