/**
 * "Exercise…" on an active contract: the choices its template offers (from the packages, when known),
 * the stakeholders the user may act as, and the command for a new commands file (by contract id, or by
 * the contract's key).
 */
import type { ActiveContract } from '../api/client';
import type { PackageIndex } from '../daml/packageIndex';
import { printType } from '../daml/types';
import type { UserRights } from '../models/users';
import { RequestValidationError } from '../errors';
import { commandFor } from '../files/templates';
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
  }));
}

export interface ActingCandidate {
  party: string;
  role: 'signatory' | 'observer';
}

/**
 * The contract's stakeholders the user may act as: the primary party first, then signatories, then
 * observers. Which of them controls a choice is in the Daml code, which the packages' signatures do
 * not hold, so the user picks when there are several.
 */
export function actingCandidates(c: ActiveContract, rights: UserRights | undefined, primaryParty?: string): ActingCandidate[] {
  const mayAct = new Set(rights?.actAs ?? []);
  const all: ActingCandidate[] = [
    ...c.event.signatories.map((party) => ({ party, role: 'signatory' as const })),
    ...c.event.observers.map((party) => ({ party, role: 'observer' as const })),
  ];
  const seen = new Set<string>();
  const candidates = all.filter((x) => mayAct.has(x.party) && !seen.has(x.party) && seen.add(x.party));
  return [...candidates.filter((x) => x.party === primaryParty), ...candidates.filter((x) => x.party !== primaryParty)];
}

/**
 * The command of `choice` on this contract: an ExerciseCommand by its id, or (`byKey`, for a contract
 * with a key and a choice of its template) an ExerciseByKeyCommand with the contract's key, which
 * reaches whichever contract holds the key when the command runs. With packages that know the choice,
 * its argument is complete (valid placeholders, Party fields set to `party`); without, it is left
 * empty to fill in.
 */
export function exerciseCommand(c: ActiveContract, choice: string, packages: PackageIndex | undefined, party: string, byKey = false): Record<string, unknown> {
  const known = packages && exerciseChoices(c, packages)?.find((x) => x.name === choice);
  const templateId = known ? known.templateId : packageNameTemplateId(c);
  const built = known && packages ? (commandFor(packages, templateId, choice, party)?.ExerciseCommand as Record<string, unknown> | undefined) : undefined;
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
