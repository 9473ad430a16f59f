import vscode = require('vscode');
import type { PackageStore } from '../../../core/ledger/packages';
import type { LedgerClient } from '../../../core/api/client';
import type { ConnectionProfile } from '../../../core/connections';
import type { LedgerConnection } from '../../../core/ledger/connection';
import { CancelledError } from '../../../core/errors';
import {
  darUploadAbilities,
  darUploadIsThere,
  darUploadLookUpText,
  darUploadMarkdown,
  darUploadSummary,
  uploadDarWithReport,
  type DarUploadMode,
  type DarUploadOutcome,
  type DarUploadResult,
} from '../../../core/submit/darUpload';
import type { Prompts } from '../../kit/prompts';
import { fileName } from './sourceFile';
import type { SendDeps } from './submit';
import type { MarkdownReports } from './textDocuments';

/** What Upload DAR is asked to do; given by a caller (tests), else asked. */
export interface DarUploadRequest {
  mode?: DarUploadMode;
  /** Upload: vet the DAR's packages (default) or only store them (3.4+). */
  vet?: boolean;
  synchronizerId?: string;
  /** The DAR was just validated (the upload that follows a validation does not validate again). */
  validated?: boolean;
}

export interface DarUploadControllerOutcome {
  result?: DarUploadResult;
  /** The upload's answer was lost: what the look-up after it found. */
  unknown?: Extract<DarUploadOutcome, { kind: 'unknown' }>;
  reportUri?: vscode.Uri;
  /** The error the participant (or the client) answered with. */
  error?: unknown;
}

export const DarUploadChoices = {
  uploadAndVet: 'Upload and Vet',
  uploadOnly: 'Upload without Vetting',
  validateOnly: 'Validate Only (Dry Run)',
} as const;

/** Upload DAR…: validate (where the version can) and upload a DAR to the active connection, with a report of what changed. */
export class DarUploadController {
  /** Said after the message of an upload or validation (the other hosts that must vet the DAR too, when a feature knows the network). */
  afterUpload?: (result: DarUploadResult, connection: LedgerConnection) => Promise<string | undefined>;

  constructor(
    private readonly deps: SendDeps,
    private readonly reports: MarkdownReports,
    private readonly prompts: () => Prompts,
    private readonly showLog: () => void,
  ) {}

  async upload(arg?: unknown, request: DarUploadRequest = {}): Promise<DarUploadControllerOutcome> {
    const prompts = this.prompts();
    const connection = await this.deps.targets.resolve(undefined, { purpose: 'upload the DAR to' });
    if (!connection) return {};
    const { profile, client } = connection;
    const uri = arg instanceof vscode.Uri ? arg : await pickDar(prompts);
    if (!uri) return {};
    const name = fileName(uri);
    let doing = request.mode === 'validate' ? 'Validating' : 'Uploading';
    try {
      const dar = await vscode.workspace.fs.readFile(uri);
      const plan = await this.plan(client, name, profile, request);
      if (!plan) return {};
      if (plan.mode === 'validate') doing = 'Validating';
      // The core validates an upload first where the version can, unless it was just validated.
      const send = (c: LedgerClient, signal: AbortSignal) =>
        uploadDarWithReport(c, dar, { mode: plan.mode, vetAllPackages: plan.vet, synchronizerId: plan.synchronizerId, validateFirst: !request.validated, signal, readDar: (bytes) => this.darReader().readDar(bytes) });
      // An upload goes through the connection: it reads the packages and the vetting again after it, and every view follows.
      const outcome = await prompts.progress(`${plan.mode === 'validate' ? 'Validating' : 'Uploading'} ${name} on ${profile.name}`, (signal) =>
        plan.mode === 'upload' ? connection.write('packages', send, { signal }) : send(client, signal),
      );
      if (outcome.kind === 'unknown') {
        // Said as unknown, with what the look-up found; never uploaded again by itself.
        const lead = `The outcome of uploading ${name} to ${profile.name} is unknown: ${outcome.error.message}.`;
        const action = await prompts.message(darUploadIsThere(outcome.lookUp) ? 'info' : 'warning', `${lead} ${darUploadLookUpText(outcome.lookUp)}`, ['Show Log']);
        if (action === 'Show Log') this.showLog();
        return { unknown: outcome };
      }
      const { result } = outcome;
      const reportUri = await this.reports.show(`${name} ${result.mode === 'validate' ? 'validation' : 'upload'} on ${profile.name}`, darUploadMarkdown(result, name, profile.name));
      const elsewhere = this.afterUpload ? await this.afterUpload(result, connection) : undefined;
      const done = `${result.mode === 'validate' ? `${name} is valid on ${profile.name}: ${darUploadSummary(result)}. Nothing was changed.` : `${name} uploaded to ${profile.name}: ${darUploadSummary(result)}.`}${elsewhere ? ` ${elsewhere}` : ''}`;
      const again = result.mode === 'validate' ? [DarUploadChoices.uploadAndVet] : [];
      const action = await prompts.message('info', done, again);
      if (action === DarUploadChoices.uploadAndVet) return this.upload(uri, { mode: 'upload', vet: true, synchronizerId: plan.synchronizerId, validated: true });
      return { result, reportUri };
    } catch (e) {
      if (e instanceof CancelledError) return { error: e };
      await this.deps.errors.report(`${doing} ${name} on ${profile.name} failed`, e);
      return { error: e };
    }
  }

  /** What to do: the caller's request, else asked (only what the version offers). */
  /** The Daml-LF decoder of the connections' package store (loaded from its own bundle on first use). */
  private darReader(): PackageStore {
    const store = this.deps.connections.packageStore;
    if (!store) throw new Error('No Daml package store: the DAR cannot be read');
    return store;
  }

  private async plan(client: LedgerClient, name: string, profile: ConnectionProfile, request: DarUploadRequest): Promise<{ mode: DarUploadMode; vet?: boolean; synchronizerId?: string } | undefined> {
    const abilities = await darUploadAbilities(client);
    let { mode, vet } = request;
    if (!mode) {
      const items = [
        { label: DarUploadChoices.uploadAndVet, detail: abilities.canValidate ? 'Validated first; the packages become usable for commands' : 'The packages become usable for commands', mode: 'upload' as const, vet: true },
        ...(abilities.canChooseVetting ? [{ label: DarUploadChoices.uploadOnly, detail: 'Stored on the participant; vet them later with a *.vetting.json file', mode: 'upload' as const, vet: false }] : []),
        ...(abilities.canValidate ? [{ label: DarUploadChoices.validateOnly, detail: 'Checks the DAR as an upload would; changes nothing', mode: 'validate' as const, vet: undefined }] : []),
      ];
      const picked = await this.prompts().pick(items, { title: `Upload ${name} to ${profile.name}` });
      if (!picked) return undefined;
      ({ mode, vet } = picked);
    }
    let synchronizerId = request.synchronizerId;
    if (!synchronizerId && abilities.canChooseVetting && (mode === 'validate' || vet !== false)) {
      const synchronizers = await client.connectedSynchronizers();
      if (synchronizers.length > 1) {
        const picked = await this.prompts().pick(
          synchronizers.map((s) => ({ label: s.synchronizerAlias || s.synchronizerId, description: s.synchronizerId, id: s.synchronizerId })),
          { title: `${mode === 'validate' ? 'Validate' : 'Vet'} ${name} on which synchronizer?` },
        );
        if (!picked) return undefined;
        synchronizerId = picked.id;
      }
    }
    return { mode, vet, synchronizerId };
  }
}

async function pickDar(prompts: Prompts): Promise<vscode.Uri | undefined> {
  const picked = await prompts.openDialog({ canSelectMany: false, openLabel: 'Upload DAR', filters: { 'Daml archives': ['dar'] }, title: 'Upload a DAR to the active participant' });
  return picked?.[0];
}
