/**
 * The injection grammar in syntaxes/: tokenizes JSON lines with vscode-textmate + vscode-oniguruma (the
 * engine VS Code uses) and checks the scopes given to Canton ids. The host grammar is VS Code's own JSON
 * grammar when the e2e runtime in .vscode-test/ has it, and otherwise a stand-in with the same scopes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, Registry, parseRawGrammar, type IGrammar } from 'vscode-textmate';
import manifest from '../../package.json';
import { REPO_ROOT } from '../support/spec';

const PARTY = 'Alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90';
const PACKAGE_ID = 'd7ae2f7e656d31bc3522c3cba720cea474575c3ac67250c3aeb080ba602f0353';
const CONTRACT_ID = '003dcb6c7e23ef4de336838ac96953d9a552c197e7cf27507e249a9e2bfb330490ca10121894129624136786f33560a09aafe574804dc8da761ae6f06d4ee18caf06f5f8';

const VSCODE_JSON_SYNTAXES = join(REPO_ROOT, '.vscode-test/cs/node_modules/code-server/lib/vscode/extensions/json/syntaxes');

/** The strings of VS Code's JSON grammar (same scope names), for machines without the e2e runtime. */
const STAND_IN_JSON = {
  scopeName: 'source.json',
  patterns: [{ include: '#value' }],
  repository: {
    value: { patterns: [{ include: '#object' }, { include: '#array' }, { include: '#string' }, { match: '-?\\d+', name: 'constant.numeric.json' }] },
    object: {
      begin: '\\{',
      end: '\\}',
      name: 'meta.structure.dictionary.json',
      patterns: [
        { begin: '"', end: '"', name: 'string.json support.type.property-name.json' },
        { begin: ':', end: '(,)|(?=\\})', name: 'meta.structure.dictionary.value.json', patterns: [{ include: '#value' }] },
      ],
    },
    array: { begin: '\\[', end: '\\]', name: 'meta.structure.array.json', patterns: [{ include: '#value' }, { match: ',' }] },
    string: { begin: '"', end: '"', name: 'string.quoted.double.json', patterns: [{ match: '\\\\.', name: 'constant.character.escape.json' }] },
  },
};

interface Token {
  text: string;
  scopes: string[];
}

async function loadGrammar(hostScope: string, useVsCode: boolean): Promise<IGrammar> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const injection = manifest.contributes.grammars.find((g) => g.scopeName === 'canton-ledger.ids.injection');
  assert.ok(injection, 'package.json contributes the injection grammar');
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new oniguruma.OnigScanner(p), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scopeName) => {
      if (scopeName === injection.scopeName) {
        const path = join(REPO_ROOT, injection.path);
        return parseRawGrammar(readFileSync(path, 'utf8'), path);
      }
      if (scopeName === 'source.json' && !useVsCode) return parseRawGrammar(JSON.stringify(STAND_IN_JSON), 'stand-in.json');
      const file = scopeName === 'source.json' ? 'JSON.tmLanguage.json' : scopeName === 'source.json.comments' ? 'JSONC.tmLanguage.json' : undefined;
      return file ? parseRawGrammar(readFileSync(join(VSCODE_JSON_SYNTAXES, file), 'utf8'), file) : null;
    },
    // What contributes.grammars[].injectTo declares, VS Code does through this hook.
    getInjections: (scopeName) => (injection.injectTo.includes(scopeName) ? [injection.scopeName] : undefined),
  });
  const grammar = await registry.loadGrammar(hostScope);
  assert.ok(grammar, `grammar ${hostScope}`);
  return grammar;
}

function tokenize(grammar: IGrammar, line: string): Token[] {
  const { tokens } = grammar.tokenizeLine(line, INITIAL);
  return tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
}

/** The innermost scope of the token(s) whose text is exactly `text`. */
function scopesOf(tokens: Token[], text: string): string[] {
  const token = tokens.find((t) => t.text === text);
  assert.ok(token, `no token "${text}" in ${JSON.stringify(tokens.map((t) => t.text))}`);
  return token.scopes;
}

const hosts: Array<{ title: string; scope: string; vscode: boolean }> = [
  { title: 'stand-in JSON grammar', scope: 'source.json', vscode: false },
  { title: "VS Code's JSON grammar", scope: 'source.json', vscode: true },
  { title: "VS Code's JSON-with-comments grammar", scope: 'source.json.comments', vscode: true },
];

describe('syntaxes: Canton ids injection grammar', () => {
  it('is contributed for the JSON and JSON-with-comments scopes and ships in the .vsix', () => {
    const injection = manifest.contributes.grammars.find((g) => g.scopeName === 'canton-ledger.ids.injection');
    assert.deepEqual([...(injection?.injectTo ?? [])].sort(), ['source.json', 'source.json.comments']);
    assert.match(readFileSync(join(REPO_ROOT, '.vscodeignore'), 'utf8'), /^!syntaxes\/\*\*$/m);
  });

  for (const host of hosts) {
    describe(host.title, () => {
      let grammar: IGrammar;
      before(async function () {
        if (host.vscode && !existsSync(VSCODE_JSON_SYNTAXES)) {
          // Said loudly and counted as skipped: `npm test` runs the e2e suite (which installs it) first.
          console.log(`\n  !!! SKIPPED: ${host.title} is not installed (${VSCODE_JSON_SYNTAXES}); run \`npm run test:e2e\` once to install code-server\n`);
          this.skip();
        }
        grammar = await loadGrammar(host.scope, host.vscode);
      });

      it('marks party ids in values and in keys (filtersByParty)', () => {
        const tokens = tokenize(grammar, `{"actAs": ["${PARTY}"], "filtersByParty": {"${PARTY}": {}}}`);
        const parts = tokens.filter((t) => t.text === 'Alice');
        assert.equal(parts.length, 2, 'the hint, in the value and in the key');
        for (const part of parts) assert.ok(part.scopes.includes('variable.other.constant.party-id.canton'), part.scopes.join(' '));
        assert.ok(scopesOf(tokens, PARTY.split('::')[1]).includes('constant.numeric.hex.namespace.canton'));
        assert.ok(parts[1].scopes.some((s) => s.startsWith('support.type.property-name.json')), 'inside the key');
      });

      it('marks template ids in both forms, with their parts', () => {
        const byName = tokenize(grammar, '{"templateId": "#demo-iou:Iou.Main:Iou"}');
        assert.ok(scopesOf(byName, '#demo-iou').includes('entity.name.namespace.package-name.canton'));
        assert.ok(scopesOf(byName, 'Iou.Main').includes('entity.name.type.module.canton'));
        assert.ok(scopesOf(byName, 'Iou').includes('entity.name.type.template.canton'));
        assert.ok(scopesOf(byName, 'Iou').includes('meta.template-id.package-name.canton'));
        const byId = tokenize(grammar, `{"templateId": "${PACKAGE_ID}:Iou:Iou"}`);
        const id = scopesOf(byId, PACKAGE_ID);
        assert.ok(id.includes('meta.template-id.package-id.canton') && id.includes('constant.numeric.hex.package-id.canton'), id.join(' '));
      });

      it('marks contract ids and bare package ids, and tells them apart', () => {
        const tokens = tokenize(grammar, `{"contractId": "${CONTRACT_ID}", "packageId": "${PACKAGE_ID}"}`);
        const contract = scopesOf(tokens, CONTRACT_ID);
        assert.ok(contract.includes('constant.numeric.hex.contract-id.canton'), contract.join(' '));
        assert.ok(!contract.includes('constant.numeric.hex.package-id.canton'));
        const pkg = scopesOf(tokens, PACKAGE_ID);
        assert.ok(pkg.includes('constant.numeric.hex.package-id.canton') && !pkg.includes('meta.template-id.package-id.canton'), pkg.join(' '));
      });

      it('leaves other strings, numbers and near misses alone', () => {
        const line = `{"note": "Alice::1220abc", "short": "${PACKAGE_ID.slice(1)}", "long": "${PACKAGE_ID}a", "n": 1234, "t": "#bad id:M:T", "x": "Bob"}`;
        const canton = tokenize(grammar, line).filter((t) => t.scopes.some((s) => s.endsWith('.canton')));
        assert.deepEqual(canton.map((t) => t.text), []);
      });

      it('does not touch ids outside strings', () => {
        // Not JSON, but the grammar must not mark it: ids only count inside string scopes.
        const tokens = tokenize(grammar, `[${'1'.repeat(64)}]`);
        assert.ok(tokens.every((t) => !t.scopes.some((s) => s.endsWith('.canton'))));
      });
    });
  }
});
