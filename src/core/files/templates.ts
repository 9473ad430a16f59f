/**
 * The starting content of new `*.commands.json` and `*.vetting.json` files, filled from what is known
 * about the connection. Whatever is not known becomes a placeholder in angle brackets, which the
 * validator flags, so that a file is never sent with a placeholder left in it.
 */
import { randomUUID } from 'node:crypto';
import { skeletonValue } from '../daml/jsonEncoding';
import type { PackageIndex } from '../daml/packageIndex';
import { shapeOf } from '../daml/types';
import type { UserRights } from '../models/users';
import { choicesOf, resolveTarget } from './argumentChecks';

import { PLACEHOLDER, TEMPLATE_ID_PLACEHOLDER, VETTING_PACKAGE_PLACEHOLDER } from './placeholders';

export { PLACEHOLDER, TEMPLATE_ID_PLACEHOLDER } from './placeholders';

export interface CommandsFileFacts {
  userId?: string;
  /** The user's rights; the first act-as party (the primary party if it is one) goes into actAs. */
  rights?: UserRights;
  primaryParty?: string;
  synchronizerId?: string;
  commandId?: string;
  /** The command to start from (e.g. from the Packages view); default a CreateCommand of a placeholder template. */
  command?: Record<string, unknown>;
  /** The party to act as, when the caller knows better than the rights (a stakeholder of the contract exercised). */
  actAs?: string;
}

/** A JsCommands object with one command to edit. */
export function commandsFileTemplate(facts: CommandsFileFacts): Record<string, unknown> {
  const actAs = facts.actAs ?? actingParty(facts.rights, facts.primaryParty) ?? PLACEHOLDER.party;
  return {
    commands: [facts.command ?? { CreateCommand: { templateId: TEMPLATE_ID_PLACEHOLDER, createArguments: {} } }],
    commandId: facts.commandId ?? randomUUID(),
    userId: facts.userId ?? PLACEHOLDER.userId,
    actAs: [actAs],
    readAs: [],
    ...(facts.synchronizerId ? { synchronizerId: facts.synchronizerId } : {}),
  };
}

export interface VettingFileFacts {
  synchronizerId?: string;
  /** The synchronizer's current topology serial; `null`: nothing vetted yet (NoPrior); absent: unknown (no guard). */
  topologySerial?: number | null;
}

/** An UpdateVettedPackagesRequest that vets one package, guarded by the current topology serial. */
export function vettingFileTemplate(facts: VettingFileFacts): Record<string, unknown> {
  const file: Record<string, unknown> = {
    changes: [{ operation: { Vet: { value: { packages: [{ ...VETTING_PACKAGE_PLACEHOLDER }] } } } }],
  };
  if (facts.synchronizerId) file.synchronizerId = facts.synchronizerId;
  if (facts.topologySerial === null) file.expectedTopologySerial = { serial: { NoPrior: {} } };
  else if (facts.topologySerial !== undefined) file.expectedTopologySerial = { serial: { Prior: { value: facts.topologySerial } } };
  return file;
}

/** The party to act as: the primary party when the user may act as it, else its first act-as party. */
export function actingParty(rights: UserRights | undefined, primaryParty?: string): string | undefined {
  if (!rights) return undefined;
  if (primaryParty && rights.actAs.includes(primaryParty)) return primaryParty;
  return rights.actAs[0];
}

export function templateText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/**
 * A complete command for a template (a CreateCommand with every field) or one of its choices (an
 * ExerciseCommand with the choice's argument), values filled with valid placeholders: Party fields of
 * the top level with `party` (or the party it gives for the field's name), the contract id marked for
 * the user to fill in. Undefined when the packages do not know the template or choice.
 */
export function commandFor(packages: PackageIndex, templateId: string, choice: string | undefined, party: string | ((field: string) => string)): Record<string, unknown> | undefined {
  const context = { packages, source: '' };
  const resolved = resolveTarget(templateId, context, true);
  if (!resolved || !('target' in resolved)) return undefined;
  const { target } = resolved;
  const withParties = (value: unknown, type: Parameters<typeof skeletonValue>[0]) => {
    const shape = shapeOf(type, packages);
    if (shape.kind !== 'record' || typeof value !== 'object' || value === null) return value;
    const filled = { ...(value as Record<string, unknown>) };
    for (const f of shape.fields) {
      const fieldShape = shapeOf(f.type, packages);
      if (fieldShape.kind === 'builtin' && fieldShape.builtin === 'Party') filled[f.name] = typeof party === 'string' ? party : party(f.name);
    }
    return filled;
  };
  if (choice === undefined) {
    if (target.kind !== 'template') return undefined;
    const type = { kind: 'con' as const, con: target.name, args: [] };
    return { CreateCommand: { templateId, createArguments: withParties(skeletonValue(type, packages), type) } };
  }
  const found = choicesOf(target, packages).find((c) => c.choice.name === choice);
  if (!found) return undefined;
  const argType = found.choice.argType;
  return { ExerciseCommand: { templateId, contractId: PLACEHOLDER.contractId, choice, choiceArgument: withParties(skeletonValue(argType, packages), argType) } };
}
