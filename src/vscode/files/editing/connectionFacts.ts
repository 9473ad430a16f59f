import type { LedgerClient } from '../../../core/api/client';
import type { ConnectionProfile } from '../../../core/connections';
import type { LedgerConnection } from '../../../core/ledger/connection';
import type { Logger } from '../../../core/log';
import type { VettedPackagesState } from '../../../core/models/vetting';
import type { ConnectionManager, ParticipantInfo } from '../../connections/manager';

export interface ConnectedParticipant {
  connection: LedgerConnection;
  profile: ConnectionProfile;
  client: LedgerClient;
  info: ParticipantInfo;
}

/**
 * What the editing support knows of the active connection: its status (parties, rights, synchronizers)
 * and its vetted packages, both from the connection's state (the vetting state is the one the Vetted
 * Packages view shows, read again after every vetting change: no copy of its own here).
 */
export class ConnectionFacts {
  constructor(private readonly connections: ConnectionManager, private readonly logger: Logger) {}

  /** The active connection when it is connected; with `connect`, a disconnected one is connected first. */
  async active(signal?: AbortSignal, connect = false): Promise<ConnectedParticipant | undefined> {
    const connection = this.connections.active();
    if (!connection) return undefined;
    const { profile, client, state } = connection;
    if (state.state === 'connected') return { connection, profile, client, info: state.info };
    if (!connect) return undefined;
    try {
      const info = await connection.connect(signal);
      return { connection, profile, client, info };
    } catch (e) {
      if (signal?.aborted) throw e;
      this.logger.warn(`New file: connection "${profile.name}" is not available, using placeholders (${(e as Error).message})`);
      return undefined;
    }
  }

  /** Parties the active connection's user may act as (empty when not connected or unknown). */
  actAsParties(): string[] {
    const state = this.connections.active()?.state;
    return state?.state === 'connected' ? (state.info.rights?.actAs ?? []) : [];
  }

  /** The vetted packages of the active, connected participant on all synchronizers; undefined when unavailable. */
  async vettedPackages(signal?: AbortSignal): Promise<VettedPackagesState[] | undefined> {
    const participant = await this.active(signal);
    const ledger = participant?.connection.ledger;
    if (!ledger) return undefined;
    try {
      return await ledger.vettedPackages(signal);
    } catch (e) {
      if (signal?.aborted) throw e;
      this.logger.info(`Vetted packages unavailable for quick fixes: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** Package id → package name, from the vetted packages (the participant's own metadata). */
  async packageNames(signal?: AbortSignal): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const state of (await this.vettedPackages(signal)) ?? []) {
      for (const p of state.packages) if (p.packageName) names.set(p.packageId, p.packageName);
    }
    return names;
  }
}
