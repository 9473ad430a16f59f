/**
 * "Exercise…" on an active contract: the choices its template offers (from the packages, when known),
 * who controls the chosen one, the stakeholders the user may act as (the controller first), and the
 * command for a new commands file (by contract id, or by the contract's key).
 */
import type { ActiveContract, LedgerClient } from '../api/client';
import type { ControllerTerm, Controllers } from '../daml/model';
import type { PackageIndex } from '../daml/packageIndex';
import { printType } from '../daml/types';
import { shortParty, type UserRights } from '../models/users';
import { RequestValidationError } from '../errors';
import { commandFor, PLACEHOLDER } from '../files/templates';
import { templateGroup } from './rows';

export interface ExerciseChoice {
  name: string;
  /** `Arg → Result`. */
  signature: string;
  consuming: boolean;
  /** The id to exercise it by, package-name form: the template's, or the interface's that declares it. */
  templateId: string;
  /** The interface that declares it, if not the template. */
  fromInterface?: string;
  /** That interface's id, package-id form (as the contract's interface views name it). */
  interfaceId?: string;
  /** Who controls it, as its package says; absent when the package does not say. */
  controllers?: Controllers;
}

/** The template id of the contract in package-name form, as commands files write it. */
export function packageNameTemplateId(c: ActiveContract): string {
  return `#${templateGroup(c)}`;
}

/** The choices of the contract's template (its own, then its interfaces'); undefined when the packages do not know it. */
export function exerciseChoices(c: ActiveContract, packages: PackageIndex): ExerciseChoice[] | undefined {
  const templateId = packageNameTemplateId(c);
  const entries = packages.choices(templateId);
  return entries?.map(({ choice, declaredBy, declaredIn }) => ({
    name: choice.name,
    signature: `${printType(choice.argType)} → ${printType(choice.returnType)}`,
    consuming: choice.consuming,
    templateId: declaredIn === 'interface' ? `#${packages.package(declaredBy.packageId)?.name ?? declaredBy.packageId}:${declaredBy.moduleName}:${declaredBy.name}` : templateId,
    fromInterface: declaredIn === 'interface' ? declaredBy.name : undefined,
    interfaceId: declaredIn === 'interface' ? `${declaredBy.packageId}:${declaredBy.moduleName}:${declaredBy.name}` : undefined,
    controllers: choice.controllers,
  }));
}

/**
 * Who controls a choice on this contract, as far as the package says:
 * - `parties`: every controller is read from the contract (its fields, its signatories or observers);
 * - `argument`: some are named by the choice's argument (`fields`), so the actor is whoever the file
 *   names there; `parties` are the others, read from the contract;
 * - `unknown`: the package does not say in a form this reads, or the contract lacks what it names.
 * `because` says it in words, for the picker.
 */
export type ChoiceControllers =
  | { kind: 'parties'; parties: string[]; because: string }
  | { kind: 'argument'; fields: string[]; parties: string[]; because: string }
  | { kind: 'unknown'; because: string };

export function choiceControllers(c: ActiveContract, choice: ExerciseChoice): ChoiceControllers {
  const controllers = choice.controllers;
  if (!controllers || controllers.kind === 'unknown') {
    return { kind: 'unknown', because: `the package does not say simply who controls ${choice.name}` };
  }
  const parties: string[] = [];
  const fields: string[] = [];
  const named: string[] = [];
  for (const term of controllers.terms) {
    if (term.kind === 'argumentField') {
      // Only a top-level field of the argument is filled in with the actor.
      if (term.path.length !== 1) return { kind: 'unknown', because: `${choice.name} is controlled by ${describe(term)}` };
      fields.push(term.path[0]);
      named.push(describe(term));
      continue;
    }
    const read = partiesOf(c, choice, term);
    if (!read) return { kind: 'unknown', because: `${choice.name} is controlled by ${describe(term)}, which the contract as loaded does not hold` };
    parties.push(...read);
    named.push(describe(term));
  }
  const because = `${choice.name} is controlled by ${named.join(' and ')}`;
  const unique = [...new Set(parties)];
  return fields.length > 0 ? { kind: 'argument', fields, parties: unique, because } : { kind: 'parties', parties: unique, because };
}

function describe(term: ControllerTerm): string {
  switch (term.kind) {
    case 'contractField':
      return `the contract's ${term.path.join('.')}`;
    case 'argumentField':
      return `the party in the argument's ${term.path.join('.')}`;
    case 'viewField':
      return `the interface view's ${term.path.join('.')}`;
    case 'signatories':
      return 'the signatories';
    case 'observers':
      return 'the observers';
  }
}

/** The parties a term names on this contract; undefined when the contract (as loaded) does not hold them. */
function partiesOf(c: ActiveContract, choice: ExerciseChoice, term: Exclude<ControllerTerm, { kind: 'argumentField' }>): string[] | undefined {
  switch (term.kind) {
    case 'signatories':
      return c.event.signatories;
    case 'observers':
      return c.event.observers;
    case 'contractField':
      return partiesIn(valueAt(c.event.createArgument, term.path));
    case 'viewField': {
      // The view is in the event only when the filter asked for the interface's views.
      const view = c.event.interfaceViews.find((v) => v.interfaceId === choice.interfaceId)?.viewValue;
      return view === undefined || view === null ? undefined : partiesIn(valueAt(view, term.path));
    }
  }
}

/** Whether the choice's controllers name a field of an interface view the contract's event does not carry. */
export function needsInterfaceView(c: ActiveContract, choice: ExerciseChoice): boolean {
  const names = choice.controllers?.kind === 'terms' && choice.controllers.terms.some((t) => t.kind === 'viewField');
  return Boolean(names && choice.interfaceId && !c.event.interfaceViews.some((v) => v.interfaceId === choice.interfaceId && v.viewValue != null));
}

/**
 * The contract with the view of the interface that declares `choice`, read by contract id as its
 * stakeholders (the Active Contracts view reads no views unless its filter asks for them).
 */
export async function withInterfaceView(client: Pick<LedgerClient, 'eventsByContractId'>, c: ActiveContract, choice: ExerciseChoice, signal: AbortSignal): Promise<ActiveContract> {
  const parties = [...new Set([...c.event.signatories, ...c.event.observers])];
  const events = await client.eventsByContractId(c.event.contractId, { filter: { parties, interfaceIds: [choice.templateId], includeInterfaceViews: true } }, { signal });
  const views = events.created?.event.interfaceViews ?? [];
  return { ...c, event: { ...c.event, interfaceViews: [...c.event.interfaceViews.filter((v) => !views.some((w) => w.interfaceId === v.interfaceId)), ...views] } };
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, field) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[field] : undefined), value);
}

/** A Party (a string), a list of them, or an optional one (null: none) as the JSON encoding writes them. */
function partiesIn(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (value === null) return [];
  if (Array.isArray(value) && value.every((x) => typeof x === 'string')) return value;
  return undefined;
}

export interface ActingCandidate {
  party: string;
  role: 'signatory' | 'observer';
  /** A controller of the choice, read from the contract: the one to act as. */
  controller?: true;
}

/**
 * The contract's stakeholders the user may act as: the choice's controllers first (when the package
 * says who they are and the contract holds them), then the primary party, then signatories, then
 * observers. The first is the one the picker preselects.
 */
export function actingCandidates(c: ActiveContract, rights: UserRights | undefined, primaryParty?: string, controllers?: ChoiceControllers): ActingCandidate[] {
  const mayAct = new Set(rights?.actAs ?? []);
  const all: ActingCandidate[] = [
    ...c.event.signatories.map((party) => ({ party, role: 'signatory' as const })),
    ...c.event.observers.map((party) => ({ party, role: 'observer' as const })),
  ];
  const seen = new Set<string>();
  const candidates = all.filter((x) => mayAct.has(x.party) && !seen.has(x.party) && seen.add(x.party));
  // Only controllers read from the contract are preselected: one named by the argument is whoever the file names.
  const controlling = new Set(controllers?.kind === 'parties' ? controllers.parties : []);
  const marked = candidates.map((x): ActingCandidate => (controlling.has(x.party) ? { ...x, controller: true } : x));
  const rank = (x: ActingCandidate) => (x.controller ? 0 : x.party === primaryParty ? 1 : 2);
  return marked.map((x, i) => ({ x, i })).sort((a, b) => rank(a.x) - rank(b.x) || a.i - b.i).map(({ x }) => x);
}

/** What the party picker says about its first item: the controller, or why there is none to preselect. */
export function actAsPrompt(candidates: readonly ActingCandidate[], controllers: ChoiceControllers | undefined): string {
  if (!controllers) return "The party to act as (the contract's template is not among the packages read)";
  switch (controllers.kind) {
    case 'parties':
      return candidates[0]?.controller
        ? `${controllers.because}: preselected`
        : `${controllers.because} (${controllers.parties.map(shortParty).join(', ') || 'nobody'}), not a party you may act as`;
    case 'argument':
      return `${controllers.because}: the party you pick, which the file names there (nothing to preselect)`;
    case 'unknown':
      return `${controllers.because}: pick the party to act as (nothing to preselect)`;
  }
}

/**
 * A party for the choice argument's other Party fields (the new owner of a transfer, say): a party of
 * the connection other than the actor, one outside the contract first; else the placeholder, which the
 * checks flag until it is replaced.
 */
export function counterparty(c: ActiveContract, actor: string, knownParties: readonly string[]): string {
  const stakeholders = new Set([...c.event.signatories, ...c.event.observers]);
  const others = knownParties.filter((p) => p !== actor);
  return others.find((p) => !stakeholders.has(p)) ?? others[0] ?? PLACEHOLDER.party;
}

/**
 * The command of `choice` on this contract, acting as `actor`: an ExerciseCommand by its id, or
 * (`byKey`, for a contract with a key and a choice of its template) an ExerciseByKeyCommand with the
 * contract's key, which reaches whichever contract holds the key when the command runs. With packages
 * that know the choice, its argument is complete (valid placeholders; the Party fields that name the
 * controller set to the actor, the others to `other`, by default the actor too); without, it is left
 * empty to fill in.
 */
export function exerciseCommand(c: ActiveContract, choice: string, packages: PackageIndex | undefined, actor: string, other = actor, byKey = false): Record<string, unknown> {
  const known = packages && exerciseChoices(c, packages)?.find((x) => x.name === choice);
  const templateId = known ? known.templateId : packageNameTemplateId(c);
  const controllers = known ? choiceControllers(c, known) : undefined;
  const controllerFields = new Set(controllers?.kind === 'argument' ? controllers.fields : []);
  const partyFor = (field: string) => (controllerFields.has(field) ? actor : other);
  const built = known && packages ? (commandFor(packages, templateId, choice, partyFor)?.ExerciseCommand as Record<string, unknown> | undefined) : undefined;
  const choiceArgument = built?.choiceArgument ?? {};
  if (!byKey) return { ExerciseCommand: { templateId, contractId: c.event.contractId, choice, choiceArgument } };
  if (!canExerciseByKey(c, known || undefined)) {
    throw new RequestValidationError('contractKey', c.event.contractKey === undefined ? 'The contract has no key: exercise it by its contract id.' : `${choice} comes from the interface ${known ? known.fromInterface : ''}: exercise it by contract id.`);
  }
  return { ExerciseByKeyCommand: { templateId, contractKey: c.event.contractKey, choice, choiceArgument } };
}

/** A choice can be exercised by key when the contract has a key and the choice is its template's (a by-key command names the template). */
export function canExerciseByKey(c: ActiveContract, choice: ExerciseChoice | undefined): boolean {
  return c.event.contractKey !== undefined && !choice?.fromInterface;
}
