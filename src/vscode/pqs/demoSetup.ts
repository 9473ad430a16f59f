/**
 * PQS with the demo participant in one step: "Set Up PQS for the Demo…" asks for a PostgreSQL database
 * and its password (kept in secret storage, never in settings), starts the demo with its mirror there
 * (or starts it again), attaches the PQS view to it and shows it. A change of `cantonLedger.demo.pqsUrl`
 * made anywhere (the Settings editor, settings.json by hand) applies to a running demo at once.
 */
import vscode = require('vscode');
import { parsePqsUrl } from '../../core/pqs/settings';
import { Commands, Views } from '../kit/ids';
import type { CommandRegistry } from '../kit/registry';
import { DEMO_PQS_SECRET_ID, DEMO_PQS_SETTING, type DemoController } from '../kit/demo';
import { Disposable } from '../kit/lifecycle';
import type { ErrorReporter, Prompts } from '../kit/prompts';
import type { SecretStore } from '../kit/secrets';
import type { PqsConnecting } from './connect';

export interface DemoPqsSetupDeps {
  demo: Pick<DemoController, 'participant' | 'followPqsSetting'>;
  /** Starts the demo (when it is not running) and connects to it. */
  startDemo(): Promise<void>;
  connecting: Pick<PqsConnecting, 'attachDemo'>;
  secrets: Pick<SecretStore, 'set' | 'delete'>;
  errors: Pick<ErrorReporter, 'report'>;
  prompts: Prompts;
}

const SETTING = `cantonLedger.${DEMO_PQS_SETTING}`;
const EXAMPLE_URL = 'postgresql://postgres@localhost:5432/postgres?schema=pqs';

export class DemoPqsSetup extends Disposable {
  /** One change at a time: the setting's own event and the command's apply run in turn, the second finding nothing to do. */
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DemoPqsSetupDeps) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SETTING)) return;
        this.apply(false).catch((err) => void this.deps.errors.report('The demo participant’s PQS mirror', err));
      }),
    );
  }

  register(commands: CommandRegistry): void {
    commands.register(Commands.pqsSetUpDemo, () => this.setUp());
  }

  /** Starts the running demo again when its mirror changed; with `start`, starts it when it is not running. */
  private apply(start: boolean): Promise<void> {
    const next = this.applying.then(async () => {
      const restarted = await this.deps.demo.followPqsSetting();
      if (restarted || (start && !this.deps.demo.participant)) await this.deps.startDemo();
    });
    this.applying = next.catch(() => undefined);
    return next;
  }

  private async setUp(): Promise<void> {
    const current = vscode.workspace.getConfiguration('cantonLedger').get<string>(DEMO_PQS_SETTING)?.trim();
    const url = await this.deps.prompts.input({
      title: 'Set Up PQS for the Demo (1/2): PostgreSQL database',
      prompt: 'A database the demo participant mirrors its ledger into, as PQS would (a role that may create the schema; the schema is replaced on every start)',
      value: current || EXAMPLE_URL,
      ignoreFocusOut: true,
      validateInput: (v) => {
        try {
          return parsePqsUrl(v.trim()).password ? 'Leave the password out: it is asked next and kept in the editor’s secret storage' : undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    if (url === undefined) return;
    const { settings } = parsePqsUrl(url.trim());
    const password = await this.deps.prompts.input({
      title: 'Set Up PQS for the Demo (2/2): password',
      prompt: `Password of ${settings.user} on ${settings.host} (kept in the editor’s secret storage; empty: none)`,
      password: true,
      ignoreFocusOut: true,
    });
    if (password === undefined) return;
    if (password) await this.deps.secrets.set(DEMO_PQS_SECRET_ID, 'pqsPassword', password);
    else await this.deps.secrets.delete(DEMO_PQS_SECRET_ID, 'pqsPassword');
    await vscode.workspace.getConfiguration('cantonLedger').update(DEMO_PQS_SETTING, url.trim(), vscode.ConfigurationTarget.Global);
    await this.apply(true);
    await this.deps.connecting.attachDemo();
    await vscode.commands.executeCommand(`${Views.pqs}.focus`);
  }
}
