/**
 * The connection object is the glue's currency: commands, views and panels are handed a
 * LedgerConnection and keep it, and a profile id is looked up once, where it comes in from outside
 * (`ConnectionManager.connection(id)`). So the manager has no forwarder that looks a connection up
 * again to hand out one of its parts (`client(id)`, `state(id)`, `ledger(id)`, …), no glue source
 * calls one, and the token sources keep no map by connection id: each connection has its own.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');
const MANAGER = join(ROOT, 'src', 'vscode', 'connections', 'manager.ts');
const TOKENS = join(ROOT, 'src', 'vscode', 'connections', 'tokens.ts');

/** What a connection answers itself: a manager method by one of these names would look it up again. */
const FORWARDERS = ['client', 'ledger', 'state', 'connectionOf', 'tokenRejected', 'cancelConnect', 'connect', 'packages', 'tokens'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.ts$/.test(name) ? [p] : [];
  });
}

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** The public methods of a class: their names and the names of their parameters typed `string`. */
function publicMethods(source: ts.SourceFile, className: string): { name: string; stringParameters: string[] }[] {
  const found: { name: string; stringParameters: string[] }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) && node.name?.text === className) {
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !member.name || !ts.isIdentifier(member.name)) continue;
        const hidden = ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
        if (hidden) continue;
        const stringParameters = member.parameters.filter((p) => p.type?.kind === ts.SyntaxKind.StringKeyword).map((p) => p.name.getText(source));
        found.push({ name: member.name.text, stringParameters });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Calls such as `this.connections.state(id)` or `manager.client(p)`: the connections asked for a part of a connection. */
function forwarderCalls(file: string, text?: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && FORWARDERS.includes(node.expression.name.text)) {
      const target = node.expression.expression;
      const holder = ts.isPropertyAccessExpression(target) ? target.name.text : ts.isIdentifier(target) ? target.text : undefined;
      if (holder === 'connections' || holder === 'manager') {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${relative(ROOT, file)}:${line + 1}: ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('connections are handed around as objects', () => {
  it('the manager has one lookup by id, connection(id), and no forwarder to a part of a connection', () => {
    const methods = publicMethods(parse(MANAGER), 'ConnectionManager');
    assert.ok(methods.some((m) => m.name === 'connection'), 'the check reads the manager');
    assert.deepEqual(methods.filter((m) => m.stringParameters.length > 0).map((m) => m.name), ['connection'], 'a method taking an id besides connection(id)');
    assert.deepEqual(methods.filter((m) => FORWARDERS.includes(m.name)).map((m) => m.name), [], 'a forwarder: ask the connection object instead');
  });

  it('no glue source asks the connections for a part of a connection', () => {
    assert.equal(forwarderCalls('probe.ts', 'const s = this.connections.state(id); manager.client(p); deps.connections.ledger(x);').length, 3, 'the check finds such calls');
    assert.deepEqual(forwarderCalls('probe.ts', 'const s = connection.state; this.connections.connection(id)?.client; manager.active();'), []);
    const calls = [...sources(join(ROOT, 'src', 'vscode')), join(ROOT, 'src', 'features.ts')].flatMap((f) => forwarderCalls(f));
    assert.deepEqual(calls, [], 'resolve the connection once and use the object');
  });

  it('the token sources keep no map by connection: each connection has its own, made with it', () => {
    const text = readFileSync(TOKENS, 'utf8');
    assert.match(text, /class ConnectionTokens\b/, 'the check reads the token sources');
    assert.doesNotMatch(text, /\bnew (Weak)?Map\b|\bMap</);
  });
});
