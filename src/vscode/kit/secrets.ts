import vscode = require('vscode');
import type { Redactor } from '../../core/redact';
import { Disposable } from './lifecycle';

/** What is kept per connection: a pasted token, a sandbox shared secret, an OAuth2 client secret, its PQS database's password. */
export type SecretKind = 'token' | 'sharedSecret' | 'clientSecret' | 'pqsPassword';

const PREFIX = 'cantonLedger';

/**
 * Connection secrets in SecretStorage, keyed by connection id. Values read are registered with the
 * redactor at once, so that they cannot reach a log line or an error message afterwards.
 */
export class SecretStore extends Disposable {
  private readonly changed = this._register(new vscode.EventEmitter<{ connectionId: string; kind: SecretKind }>());
  readonly onDidChange = this.changed.event;

  constructor(private readonly storage: vscode.SecretStorage, private readonly redactor: Redactor) {
    super();
    this._register(
      storage.onDidChange((e) => {
        const m = new RegExp(`^${PREFIX}\\.(token|sharedSecret|clientSecret|pqsPassword)/(.+)$`).exec(e.key);
        if (m) this.changed.fire({ kind: m[1] as SecretKind, connectionId: m[2] });
      }),
    );
  }

  private key(connectionId: string, kind: SecretKind): string {
    return `${PREFIX}.${kind}/${connectionId}`;
  }

  async get(connectionId: string, kind: SecretKind): Promise<string | undefined> {
    const v = await this.storage.get(this.key(connectionId, kind));
    this.redactor.register(v);
    return v || undefined;
  }

  async set(connectionId: string, kind: SecretKind, value: string): Promise<void> {
    this.redactor.register(value);
    await this.storage.store(this.key(connectionId, kind), value);
  }

  async delete(connectionId: string, kind?: SecretKind): Promise<void> {
    for (const k of kind ? [kind] : (['token', 'sharedSecret', 'clientSecret', 'pqsPassword'] as const)) await this.storage.delete(this.key(connectionId, k));
  }
}
