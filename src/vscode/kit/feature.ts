// The one shape of a feature of the extension: `src/vscode/<feature>/index.ts` exports
// `activate<Feature>(host: FeatureHost): ActivatedFeature<Api>`; `src/features.ts` builds the host once
// and activates the features of its list. A feature reaches the rest of the extension only through the
// host (never by importing another feature's instances), so that it can load on its own first use.
import type * as vscode from 'vscode';
import type { Logger } from '../../core/log';
import type { Redactor } from '../../core/redact';
import type { CommandRegistry } from './registry';
import type { ConnectionManager } from '../connections/manager';
import type { DemoController } from './demo';
import type { JsonDocuments } from './documents';
import type { IDisposable } from './lifecycle';
import type { LedgerPackages } from './ledgerPackages';
import type { ErrorReporter, PromptsPort } from './prompts';
import type { SecretStore } from './secrets';

/** What every feature is handed: the extension's shared objects, made once by `src/features.ts`. */
export interface FeatureHost {
  readonly context: vscode.ExtensionContext;
  /** Registers the feature's commands (failures reported once, targets resolved to a connection). */
  readonly commands: CommandRegistry;
  /** Every connection, the active one, and their events. */
  readonly connections: ConnectionManager;
  /** Every question, message and progress (a test answers them by replacing `current`). */
  readonly prompts: PromptsPort;
  readonly errors: ErrorReporter;
  /** The read-only JSON documents (`canton-ledger:` scheme). */
  readonly documents: JsonDocuments;
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly secrets: SecretStore;
  /** The Daml packages in use (the active connection's, else the workspace's DARs). */
  readonly packages: LedgerPackages;
  /** The demo participant of this window. */
  readonly demo: DemoController;
  /** Shows the Canton Ledger output channel. */
  readonly showLog: () => void;
}

/** What a feature's activation gives back: its registrations (disposed with the extension) and what it offers the tests. */
export interface ActivatedFeature<Api = undefined> {
  readonly disposables: readonly IDisposable[];
  readonly api: Api;
}
