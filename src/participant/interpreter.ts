/**
 * Turns a submission into a transaction: the simulator's stand-in for the Daml engine. Commands
 * run in order against an overlay of the ledger, so a submission is atomic: it either yields a
 * whole transaction or throws the error Canton would give, and the ledger is not touched.
 */
import { LedgerApiError } from './errors';
import type { ContractRecord, CreatedNode, ExercisedNode, TransactionNode } from './model';
import { beyondTheSimulator, noSynchronizer, type ChoiceContext, type IdentifierRef, type InterfaceDef, type InterfaceInstance, type PackageStore, type TemplateDef } from './packages';
import type { Micros } from './time';
import type { DamlType } from '../core/daml/model';
import { checkRecord, checkValue, type DamlRecord } from './values';

export type ParsedCommand =
  | { kind: 'create'; templateId: string; ref: IdentifierRef; createArguments: unknown }
  | { kind: 'exercise'; templateId: string; ref: IdentifierRef; contractId: string; choice: string; choiceArgument: unknown }
  | { kind: 'createAndExercise'; templateId: string; ref: IdentifierRef; createArguments: unknown; choice: string; choiceArgument: unknown }
  | { kind: 'exerciseByKey'; templateId: string; ref: IdentifierRef; contractKey: unknown; choice: string; choiceArgument: unknown };

/** What the interpreter needs to know about the ledger; it never changes it. */
export interface LedgerView {
  activeContract(contractId: string): ContractRecord | undefined;
  contractIdByKey(keyId: string): string | undefined;
  vettedOn(synchronizerId: string): ReadonlySet<string>;
  /** The packages: templates by id, and the types their values are checked against. */
  packages: PackageStore;
  synchronizerIds: readonly string[];
  newContractId(): string;
  /** Sorted, de-duplicated and shared party lists. */
  parties(list: Iterable<string>): readonly string[];
}

export interface Submission {
  commands: ParsedCommand[];
  actAs: readonly string[];
  readAs: readonly string[];
  synchronizerId?: string;
  effectiveAt: Micros;
}

export interface PreparedTransaction {
  synchronizerId: string;
  nodes: TransactionNode[];
  /** Contracts the transaction creates (offsets are filled in on commit). */
  created: ContractRecord[];
  /** Contracts it archives (including those it created). */
  archived: ContractRecord[];
}

/** The identity of a contract key, independent of the package version. */
export function keyId(template: TemplateDef, key: unknown): string {
  return `${template.nameKey}/${JSON.stringify(key)}`;
}

export function interpret(view: LedgerView, submission: Submission): PreparedTransaction {
  return new Interpretation(view, submission).run();
}

function interpretationError(message: string): LedgerApiError {
  return new LedgerApiError('DAML_INTERPRETATION_ERROR', `Interpretation error: Error: ${message}`);
}

function contractNotFound(contractId: string): LedgerApiError {
  return new LedgerApiError('CONTRACT_NOT_FOUND', `Contract could not be found with id ${contractId}`, {
    resources: [['ErrorResource(CID)', contractId]],
  });
}

class Interpretation {
  private readonly nodes: TransactionNode[] = [];
  private readonly created = new Map<string, ContractRecord>();
  private readonly archived = new Map<string, ContractRecord>();
  private readonly createdKeys = new Map<string, string>();
  private readonly readers: ReadonlySet<string>;
  private readonly synchronizerId: string;
  private readonly vetted: ReadonlySet<string>;

  constructor(
    private readonly view: LedgerView,
    private readonly submission: Submission,
  ) {
    this.readers = new Set([...submission.actAs, ...submission.readAs]);
    this.synchronizerId = this.chooseSynchronizer();
    this.vetted = view.vettedOn(this.synchronizerId);
  }

  run(): PreparedTransaction {
    const actAs = new Set(this.submission.actAs);
    for (const command of this.submission.commands) {
      if (command.kind === 'exercise') {
        const iface = this.view.packages.resolveCommandInterface(command.ref, this.vetted);
        if (iface) {
          this.exerciseThroughInterface(iface, this.fetch(command.contractId), command.choice, command.choiceArgument, actAs);
          continue;
        }
      }
      const template = this.view.packages.resolveCommandTemplate(command.templateId, command.ref, this.vetted);
      switch (command.kind) {
        case 'create':
          this.create(template, command.createArguments, actAs, []);
          break;
        case 'exercise':
          this.exercise(template, this.fetch(command.contractId), command.choice, command.choiceArgument, actAs);
          break;
        case 'createAndExercise': {
          const contractId = this.create(template, command.createArguments, actAs, []);
          this.exercise(template, this.fetch(contractId), command.choice, command.choiceArgument, actAs);
          break;
        }
        case 'exerciseByKey':
          this.exercise(template, this.fetchByKey(template, command.contractKey), command.choice, command.choiceArgument, actAs, true);
          break;
      }
    }
    for (const contract of this.archived.values()) {
      if (this.created.has(contract.contractId)) contract.transient = true;
    }
    return {
      synchronizerId: this.synchronizerId,
      nodes: this.nodes,
      created: [...this.created.values()],
      archived: [...this.archived.values()],
    };
  }

  /** The requested synchronizer, else the one the first exercised contract lives on, else the first connected one. */
  private chooseSynchronizer(): string {
    const requested = this.submission.synchronizerId;
    if (requested) {
      if (!this.view.synchronizerIds.includes(requested)) throw noSynchronizer(`the participant is not connected to ${requested}`);
      return requested;
    }
    for (const command of this.submission.commands) {
      if (command.kind === 'exercise') {
        const input = this.view.activeContract(command.contractId);
        if (input) return input.synchronizerId;
      }
    }
    return this.view.synchronizerIds[0];
  }

  private create(template: TemplateDef, argument: unknown, authorizers: ReadonlySet<string>, parentWitnesses: readonly string[]): string {
    const normalised = checkRecord(template.type, argument, this.view.packages);
    const failure = template.ensure?.(normalised);
    if (failure) throw interpretationError(failure);
    const signatories = this.view.parties(template.signatories(normalised));
    this.requireAuthorization(template, signatories, authorizers);
    const key = template.key ? checkValue(template.key.type, template.key.of(normalised), this.view.packages) : null;
    if (template.key && this.activeIdForKey(keyId(template, key))) {
      throw new LedgerApiError('DUPLICATE_CONTRACT_KEY', `Interpretation error: Error: contract key is not unique: ${JSON.stringify(key)}`);
    }
    const observers = this.view.parties(template.observers(normalised).filter((p) => !signatories.includes(p)));
    const contract: ContractRecord = {
      contractId: this.view.newContractId(),
      template,
      argument: normalised,
      key,
      signatories,
      observers,
      stakeholders: this.view.parties([...signatories, ...observers]),
      createdAt: this.submission.effectiveAt,
      createdOffset: 0, // set on commit
      createdNodeId: this.nodes.length,
      createdSynchronizerId: this.synchronizerId,
      synchronizerId: this.synchronizerId,
      reassignmentCounter: 0,
    };
    const node: CreatedNode = {
      kind: 'created',
      nodeId: this.nodes.length,
      contract,
      witnesses: this.view.parties([...contract.stakeholders, ...parentWitnesses]),
    };
    this.nodes.push(node);
    this.created.set(contract.contractId, contract);
    if (template.key) this.createdKeys.set(keyId(template, key), contract.contractId);
    return contract.contractId;
  }

  private exercise(template: TemplateDef, contract: ContractRecord, choiceName: string, choiceArgument: unknown, authorizers: ReadonlySet<string>, byKey = false): void {
    if (contract.template.nameKey !== template.nameKey) {
      throw new LedgerApiError(
        'WRONGLY_TYPED_CONTRACT',
        `Contract ${contract.contractId} was found to be of type ${contract.template.id} but ${template.id} was expected`,
      );
    }
    const { choice, argument, behaviour } = this.checkedChoice(template.choices, choiceName, choiceArgument, {
      owner: `template ${template.id}`,
      beyond: `choice ${choiceName} of ${template.id} runs Daml code; on templates loaded from DARs only creates and Archive work`,
    });
    const actors = this.view.parties(behaviour.controllers(contract.argument, argument, contract.signatories));
    this.runExercise({ template, contract, choice: choiceName, consuming: choice.consuming, argument, actors, authorizers, byKey }, (ctx) =>
      behaviour.body(ctx, template, contract.argument, argument),
    );
  }

  /** An exercise whose `templateId` is an interface: the interface's choice, run on the contract's instance of it. */
  private exerciseThroughInterface(iface: InterfaceDef, contract: ContractRecord, choiceName: string, choiceArgument: unknown, authorizers: ReadonlySet<string>): void {
    const template = contract.template;
    const instance = template.interfaces.find((i) => i.interfaceId === iface.id);
    if (!instance) {
      throw new LedgerApiError(
        'CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE',
        `Interpretation error: Error: Contract ${contract.contractId} of template ${template.id} does not implement interface ${iface.id}`,
        { resources: [['CONTRACT_ID', contract.contractId], ['TEMPLATE_ID', template.id], ['INTERFACE_ID', iface.id]] },
      );
    }
    const { choice, argument, behaviour } = this.checkedChoice(iface.choices, choiceName, choiceArgument, {
      owner: `interface ${iface.id}`,
      beyond: `choice ${choiceName} of interface ${iface.id} runs Daml code the simulator has no TypeScript for`,
    });
    const seen: InterfaceInstance = {
      template,
      argument: contract.argument,
      signatories: contract.signatories,
      // Computed when a choice asks for it: Archive does not, so it works on instances from DARs too.
      get view() {
        if (!instance.view) throw beyondTheSimulator(`the view of ${iface.id} for ${template.id} runs Daml code the simulator has no TypeScript for`);
        return instance.view(contract.argument);
      },
      call: (method, ...args) => {
        const implementation = instance.methods?.[method];
        if (!implementation) throw beyondTheSimulator(`method ${method} of ${iface.id} on ${template.id} has no TypeScript implementation`);
        return implementation(contract.argument, ...args);
      },
    };
    const actors = this.view.parties(behaviour.controllers(seen, argument));
    this.runExercise({ template, contract, choice: choiceName, consuming: choice.consuming, argument, actors, authorizers, interfaceId: iface.id }, (ctx) =>
      behaviour.body(ctx, seen, argument),
    );
  }

  /** A template's or interface's choice by name, its argument checked against its type, and what it does. */
  private checkedChoice<C extends { argType: DamlType; behaviour?: object }>(
    choices: ReadonlyMap<string, C>,
    name: string,
    choiceArgument: unknown,
    say: { owner: string; beyond: string },
  ): { choice: C; argument: DamlRecord; behaviour: NonNullable<C['behaviour']> } {
    const choice = choices.get(name);
    if (!choice) throw new LedgerApiError('COMMAND_PREPROCESSING_FAILED', `Couldn't find requested choice ${name} for ${say.owner}`);
    const argument = checkValue(choice.argType, choiceArgument, this.view.packages) as DamlRecord;
    if (!choice.behaviour) throw beyondTheSimulator(say.beyond);
    return { choice, argument, behaviour: choice.behaviour as NonNullable<C['behaviour']> };
  }

  /** The exercise node, the archive of a consuming choice, then the body's consequences. */
  private runExercise(
    exercise: {
      template: TemplateDef;
      contract: ContractRecord;
      choice: string;
      consuming: boolean;
      argument: DamlRecord;
      actors: readonly string[];
      authorizers: ReadonlySet<string>;
      interfaceId?: string;
      byKey?: boolean;
    },
    body: (ctx: ChoiceContext) => unknown,
  ): void {
    const { template, contract, actors } = exercise;
    this.requireAuthorization(template, actors, exercise.authorizers);

    const informees = exercise.consuming ? [...contract.stakeholders, ...actors] : [...contract.signatories, ...actors];
    const node: ExercisedNode = {
      kind: 'exercised',
      nodeId: this.nodes.length,
      contract,
      template,
      choice: exercise.choice,
      choiceArgument: exercise.argument,
      actingParties: actors,
      consuming: exercise.consuming,
      witnesses: this.view.parties(informees),
      lastDescendantNodeId: this.nodes.length,
      exerciseResult: null,
      ...(exercise.interfaceId === undefined ? {} : { interfaceId: exercise.interfaceId }),
      ...(exercise.byKey ? { byKey: true as const } : {}),
    };
    this.nodes.push(node);
    // A consuming choice archives its contract before its body runs.
    if (exercise.consuming) this.archived.set(contract.contractId, contract);

    const childAuthorizers = new Set([...actors, ...contract.signatories]);
    const context: ChoiceContext = {
      create: (childTemplate, childArgument) => this.create(childTemplate, childArgument, childAuthorizers, node.witnesses),
      fail: (message) => {
        throw interpretationError(`Unhandled Daml exception: ${message}`);
      },
    };
    node.exerciseResult = body(context);
    node.lastDescendantNodeId = this.nodes.length - 1;
  }

  private requireAuthorization(template: TemplateDef, required: readonly string[], authorizers: ReadonlySet<string>): void {
    const missing = required.filter((p) => !authorizers.has(p));
    if (missing.length > 0) {
      throw new LedgerApiError(
        'DAML_AUTHORIZATION_ERROR',
        `Interpretation error: Error: node NodeId(${this.nodes.length}) (${template.id}) requires authorizers ${required.join(',')}, but only ${[...authorizers].join(',')} were given`,
      );
    }
  }

  /** An active contract visible to the submitters (Canton does not reveal invisible contracts either). */
  private fetch(contractId: string): ContractRecord {
    if (this.archived.has(contractId)) throw contractNotFound(contractId);
    const contract = this.created.get(contractId) ?? this.view.activeContract(contractId);
    if (!contract || !contract.stakeholders.some((p) => this.readers.has(p))) throw contractNotFound(contractId);
    if (contract.synchronizerId !== this.synchronizerId) {
      throw noSynchronizer(`contract ${contractId} is assigned to ${contract.synchronizerId}, not to ${this.synchronizerId}`);
    }
    return contract;
  }

  private fetchByKey(template: TemplateDef, key: unknown): ContractRecord {
    if (!template.key) {
      throw new LedgerApiError('COMMAND_PREPROCESSING_FAILED', `Template ${template.id} does not have a contract key`);
    }
    const normalised = checkValue(template.key.type, key, this.view.packages);
    const contractId = this.activeIdForKey(keyId(template, normalised));
    const contract = contractId === undefined ? undefined : this.created.get(contractId) ?? this.view.activeContract(contractId);
    if (!contract || !contract.stakeholders.some((p) => this.readers.has(p))) {
      throw new LedgerApiError(
        'CONTRACT_KEY_NOT_FOUND',
        `dependency error: couldn't find key GlobalKey(${template.nameKey}, ${JSON.stringify(normalised)})`,
      );
    }
    return this.fetch(contract.contractId);
  }

  private activeIdForKey(id: string): string | undefined {
    const local = this.createdKeys.get(id);
    if (local !== undefined && !this.archived.has(local)) return local;
    const onLedger = this.view.contractIdByKey(id);
    return onLedger !== undefined && !this.archived.has(onLedger) ? onLedger : undefined;
  }
}
