/**
 * Reads who controls a choice from its `controllers` expression (`TemplateChoice.controllers`, field 4
 * of daml_lf2.proto: a `List Party` with the contract and the choice argument in scope), without a
 * Daml engine: the expression is decoded (only the kinds of node the simple forms use) and evaluated
 * symbolically, with the contract and the argument as unknowns. What it yields is a list of terms (a
 * field of the contract, of the argument or of the interface view, the signatories, the observers) or
 * `unknown`; nothing in between is guessed.
 *
 * The forms are those the Daml compiler writes (checked on the DARs in ../shared/daml/dars, LF 2.1 and
 * 2.2): the choice's controllers call a value of the module, `$sc_<Template>_<n> this arg`, which is
 * `\this arg -> let ds = this.owner in DA.Internal.Template.Functions:$ctoParties ds`; several
 * parties become `DA.Internal.Prelude:concat [toParties a, toParties b]`; `signatory this` calls the
 * template's `$csignatory` value (or, in an interface, `DA.Internal.Template.Functions:signatory`
 * with the interface's dictionary). Values of the package itself are followed; of other packages only
 * those standard-library functions are known by name. (LF names write a `$` of the Daml name as `$$`.)
 */
import type { ControllerTerm, Controllers } from '../model';
import { WireFormatError, WireReader } from './wire';

/** What the expression reader needs of the package's tables (package.ts's `Tables`). */
export interface ExpressionTables {
  readonly selfId: string;
  string(index: number): string;
  dottedName(index: number): string;
  /** `Package.interned_exprs` (LF 2.2+ shares subexpressions through it). */
  readonly exprs: readonly Uint8Array[];
  /** A value definition of this package by module and name: its expression's bytes. */
  value(moduleName: string, name: string): Uint8Array | undefined;
  /** The package a `SelfOrImportedPackageId` message names (read from the reader's position to `end`). */
  packageRef(w: WireReader, end: number): string;
}

/** The names a choice's expressions bind: the contract (`this`) and the argument. */
export interface ChoiceBinders {
  contract: string;
  argument: string;
}

/** Decodes and evaluates one choice's `controllers` expression; `unknown` for any form it cannot follow. */
export function readControllers(bytes: Uint8Array, binders: ChoiceBinders, tables: ExpressionTables): Controllers {
  try {
    const evaluator = new Evaluator(tables);
    const env = new Map<string, Value>([
      [binders.contract, { v: 'contract' }],
      [binders.argument, { v: 'argument' }],
    ]);
    const result = evaluator.eval(evaluator.decode(bytes), env);
    const terms = termsOf(result);
    return terms ? { kind: 'terms', terms } : { kind: 'unknown' };
  } catch (error) {
    // A form too deep or too large to follow, or bytes this reader does not expect: not a reason to
    // refuse the package, whose signatures are what matters; the controllers stay unknown.
    if (error instanceof OutOfFuel || error instanceof WireFormatError || error instanceof RangeError) return { kind: 'unknown' };
    throw error;
  }
}

// ---------------------------------------------------------------- expressions (the kinds used)

type Expr =
  | { k: 'var'; name: string }
  | { k: 'val'; packageId: string; module: string; name: string }
  | { k: 'proj'; field: string; record: Expr }
  | { k: 'app'; fun: Expr; args: Expr[] }
  /** Type application and abstraction: no value meaning here. */
  | { k: 'typed'; expr: Expr }
  | { k: 'abs'; params: string[]; body: Expr }
  | { k: 'let'; bindings: Array<[string, Expr]>; body: Expr }
  | { k: 'nil' }
  | { k: 'cons'; front: Expr[]; tail: Expr }
  | { k: 'viewInterface'; expr: Expr }
  | { k: 'signatoryInterface'; expr: Expr }
  | { k: 'observerInterface'; expr: Expr }
  /** Conversions between a template's payload and an interface: the same contract. */
  | { k: 'sameContract'; expr: Expr }
  | { k: 'other' };

/** Symbolic values: the contract, the argument, fields of them, lists, functions, known functions. */
type Value =
  | { v: 'contract' }
  | { v: 'argument' }
  | { v: 'view' }
  | { v: 'field'; of: 'contract' | 'argument' | 'view'; path: string[] }
  | { v: 'parties'; terms: ControllerTerm[] }
  | { v: 'list'; items: Value[] }
  | { v: 'closure'; params: string[]; body: Expr; env: Map<string, Value> }
  | { v: 'known'; fn: KnownFunction; args: Value[] }
  | { v: 'unknown' };

/** Functions of the standard library the compiled forms call, by what they do. */
type KnownFunction = 'toParties' | 'toPartiesWithDictionary' | 'concat' | 'signatory' | 'observer';

const ARITY: Record<KnownFunction, number> = { toParties: 1, toPartiesWithDictionary: 2, concat: 1, signatory: 2, observer: 2 };

/** daml-stdlib's names (`DA.Internal.Template.Functions`, `DA.Internal.Prelude`), as compiled packages refer to them. */
function knownFunction(module: string, name: string): KnownFunction | undefined {
  if (module === 'DA.Internal.Template.Functions') {
    // `$ctoParties` (LF: `$$ctoParties`) is toParties of the Party instance, `…1` of lists, `…2` of Optional.
    if (/^\$\$ctoParties\d*$/.test(name)) return 'toParties';
    if (name === 'toParties') return 'toPartiesWithDictionary';
    if (name === 'signatory') return 'signatory';
    if (name === 'observer') return 'observer';
  }
  if (module === 'DA.Internal.Prelude' && name === 'concat') return 'concat';
  return undefined;
}

class OutOfFuel extends Error {}

/** Bounds on what one choice may cost: nodes decoded, evaluation steps, nesting. */
const MAX_NODES = 5_000;
const MAX_STEPS = 5_000;
const MAX_DEPTH = 200;

class Evaluator {
  private nodes = 0;
  private steps = 0;
  private depth = 0;
  private readonly values = new Map<string, Expr>();

  constructor(private readonly tables: ExpressionTables) {}

  decode(bytes: Uint8Array): Expr {
    return WireReader.read(bytes, (w, end) => this.readExpr(w, end));
  }

  // -------------------------------------------------------------- decoding

  private readExpr(w: WireReader, end: number): Expr {
    return this.bounded(++this.nodes > MAX_NODES, () => this.readExprFields(w, end));
  }

  /** Runs one level deeper; out of fuel when `exhausted` or too deep. */
  private bounded<T>(exhausted: boolean, run: () => T): T {
    if (exhausted || this.depth > MAX_DEPTH) throw new OutOfFuel();
    this.depth++;
    try {
      return run();
    } finally {
      this.depth--;
    }
  }

  private sub(w: WireReader, wireType: number): Expr {
    return w.embedded(wireType, (end) => this.readExpr(w, end));
  }

  private readExprFields(w: WireReader, end: number): Expr {
    const t = this.tables;
    let expr: Expr = { k: 'other' };
    const wrapped = (k: 'viewInterface' | 'signatoryInterface' | 'observerInterface' | 'sameContract', field: number) => (wt: number) => {
      let inner: Expr = { k: 'other' };
      w.message(wt, { [field]: (x) => (inner = this.sub(w, x)) });
      expr = { k, expr: inner };
    };
    w.fields(end, {
      2: (wt) => (expr = { k: 'var', name: t.string(w.int32(wt)) }),
      3: (wt) => {
        // ValueId { module = 1 { package_id = 1; module_name = 2 }; name = 2 }
        let packageId = t.selfId;
        let module = 0;
        let name = 0;
        w.message(wt, {
          1: (x) => w.message(x, { 1: (y) => (packageId = w.embedded(y, (e) => t.packageRef(w, e))), 2: (y) => (module = w.int32(y)) }),
          2: (x) => (name = w.int32(x)),
        });
        expr = { k: 'val', packageId, module: t.dottedName(module), name: t.dottedName(name) };
      },
      // RecProj { tycon = 1; record = 3; field = 4 }
      8: (wt) => {
        let field = 0;
        let record: Expr = { k: 'other' };
        w.message(wt, { 3: (x) => (record = this.sub(w, x)), 4: (x) => (field = w.int32(x)) });
        expr = { k: 'proj', field: t.string(field), record };
      },
      // App { fun = 1; args = 2 }
      15: (wt) => {
        let fun: Expr = { k: 'other' };
        const args: Expr[] = [];
        w.message(wt, { 1: (x) => (fun = this.sub(w, x)), 2: (x) => args.push(this.sub(w, x)) });
        expr = { k: 'app', fun, args };
      },
      // TyApp { expr = 1 } and TyAbs { body = 2 }
      16: (wt) => {
        let inner: Expr = { k: 'other' };
        w.message(wt, { 1: (x) => (inner = this.sub(w, x)) });
        expr = { k: 'typed', expr: inner };
      },
      18: (wt) => {
        let inner: Expr = { k: 'other' };
        w.message(wt, { 2: (x) => (inner = this.sub(w, x)) });
        expr = { k: 'typed', expr: inner };
      },
      // Abs { param = 1 (VarWithType: name = 3); body = 2 }
      17: (wt) => {
        const params: string[] = [];
        let body: Expr = { k: 'other' };
        w.message(wt, { 1: (x) => w.message(x, { 3: (y) => params.push(t.string(w.int32(y))) }), 2: (x) => (body = this.sub(w, x)) });
        expr = { k: 'abs', params, body };
      },
      // Block { bindings = 1 (Binding { binder = 1; bound = 2 }); body = 2 }
      20: (wt) => {
        const bindings: Array<[string, Expr]> = [];
        let body: Expr = { k: 'other' };
        w.message(wt, {
          1: (x) => {
            let name = '';
            let bound: Expr = { k: 'other' };
            w.message(x, { 1: (y) => w.message(y, { 3: (z) => (name = t.string(w.int32(z))) }), 2: (y) => (bound = this.sub(w, y)) });
            bindings.push([name, bound]);
          },
          2: (x) => (body = this.sub(w, x)),
        });
        expr = { k: 'let', bindings, body };
      },
      21: (wt) => {
        w.bytes(wt);
        expr = { k: 'nil' };
      },
      // Cons { type = 1; front = 2; tail = 3 }
      22: (wt) => {
        const front: Expr[] = [];
        let tail: Expr = { k: 'other' };
        w.message(wt, { 2: (x) => front.push(this.sub(w, x)), 3: (x) => (tail = this.sub(w, x)) });
        expr = { k: 'cons', front, tail };
      },
      33: wrapped('sameContract', 3),
      34: wrapped('sameContract', 3),
      36: wrapped('signatoryInterface', 2),
      37: wrapped('observerInterface', 2),
      38: wrapped('viewInterface', 2),
      44: (wt) => {
        const index = w.int32(wt);
        const bytes = t.exprs[index];
        if (!bytes) throw new WireFormatError(`interned expression #${index} does not exist (the table has ${t.exprs.length})`);
        expr = this.decode(bytes);
      },
    });
    return expr;
  }

  // -------------------------------------------------------------- evaluation

  eval(expr: Expr, env: Map<string, Value>): Value {
    return this.bounded(++this.steps > MAX_STEPS, () => this.evalNode(expr, env));
  }

  private evalNode(expr: Expr, env: Map<string, Value>): Value {
    switch (expr.k) {
      case 'var':
        return env.get(expr.name) ?? UNKNOWN;
      case 'val':
        return this.valueOf(expr);
      case 'proj':
        return project(this.eval(expr.record, env), expr.field);
      case 'app':
        return expr.args.reduce((fun, arg) => this.apply(fun, this.eval(arg, env)), this.eval(expr.fun, env));
      case 'typed':
      case 'sameContract':
        return this.eval(expr.expr, env);
      case 'abs':
        return expr.params.length > 0 ? { v: 'closure', params: expr.params, body: expr.body, env } : this.eval(expr.body, env);
      case 'let': {
        const scope = new Map(env);
        for (const [name, bound] of expr.bindings) scope.set(name, this.eval(bound, scope));
        return this.eval(expr.body, scope);
      }
      case 'nil':
        return { v: 'list', items: [] };
      case 'cons': {
        const tail = this.eval(expr.tail, env);
        if (tail.v !== 'list') return UNKNOWN;
        return { v: 'list', items: [...expr.front.map((e) => this.eval(e, env)), ...tail.items] };
      }
      case 'viewInterface':
        return this.eval(expr.expr, env).v === 'contract' ? { v: 'view' } : UNKNOWN;
      case 'signatoryInterface':
        return this.eval(expr.expr, env).v === 'contract' ? { v: 'parties', terms: [{ kind: 'signatories' }] } : UNKNOWN;
      case 'observerInterface':
        return this.eval(expr.expr, env).v === 'contract' ? { v: 'parties', terms: [{ kind: 'observers' }] } : UNKNOWN;
      case 'other':
        return UNKNOWN;
    }
  }

  /** A value definition: one of this package (its expression, decoded once), or a known library function. */
  private valueOf(ref: { packageId: string; module: string; name: string }): Value {
    const known = knownFunction(ref.module, ref.name);
    if (known) return { v: 'known', fn: known, args: [] };
    if (ref.packageId !== this.tables.selfId) return UNKNOWN;
    const key = `${ref.module}:${ref.name}`;
    let expr = this.values.get(key);
    if (!expr) {
      const bytes = this.tables.value(ref.module, ref.name);
      if (!bytes) return UNKNOWN;
      // DefValue { name_with_type = 2; expr = 3 }
      expr = WireReader.read(bytes, (w, end) => {
        let body: Expr = { k: 'other' };
        w.fields(end, { 3: (wt) => (body = this.sub(w, wt)) });
        return body;
      });
      this.values.set(key, expr);
    }
    return this.eval(expr, new Map());
  }

  private apply(fun: Value, arg: Value): Value {
    if (fun.v === 'closure') {
      const [param, ...rest] = fun.params;
      const env = new Map(fun.env).set(param, arg);
      return rest.length > 0 ? { v: 'closure', params: rest, body: fun.body, env } : this.eval(fun.body, env);
    }
    if (fun.v !== 'known') return UNKNOWN;
    const args = [...fun.args, arg];
    if (args.length < ARITY[fun.fn]) return { v: 'known', fn: fun.fn, args };
    switch (fun.fn) {
      case 'toParties':
        return partiesOf(args[0]);
      case 'toPartiesWithDictionary':
        // Any IsParties instance (Party, [Party], Optional Party): the field holds the parties either way.
        return partiesOf(args[1]);
      case 'concat': {
        const list = args[0];
        if (list.v !== 'list') return UNKNOWN;
        const terms = list.items.map(termsOf);
        return terms.every((x): x is ControllerTerm[] => x !== undefined) ? { v: 'parties', terms: terms.flat() } : UNKNOWN;
      }
      case 'signatory':
        return args[1].v === 'contract' ? { v: 'parties', terms: [{ kind: 'signatories' }] } : UNKNOWN;
      case 'observer':
        return args[1].v === 'contract' ? { v: 'parties', terms: [{ kind: 'observers' }] } : UNKNOWN;
    }
  }
}

const UNKNOWN: Value = { v: 'unknown' };

function project(record: Value, field: string): Value {
  switch (record.v) {
    case 'contract':
    case 'argument':
    case 'view':
      return { v: 'field', of: record.v, path: [field] };
    case 'field':
      return { v: 'field', of: record.of, path: [...record.path, field] };
    default:
      return UNKNOWN;
  }
}

function partiesOf(value: Value): Value {
  const terms = termsOf(value);
  return terms ? { v: 'parties', terms } : UNKNOWN;
}

/** The terms a value names as parties: a field, a list of them, parties already known; else undefined. */
function termsOf(value: Value): ControllerTerm[] | undefined {
  switch (value.v) {
    case 'parties':
      return value.terms;
    case 'field':
      return [{ kind: value.of === 'contract' ? 'contractField' : value.of === 'argument' ? 'argumentField' : 'viewField', path: value.path }];
    case 'list': {
      const terms = value.items.map(termsOf);
      return terms.every((x): x is ControllerTerm[] => x !== undefined) ? terms.flat() : undefined;
    }
    default:
      return undefined;
  }
}
