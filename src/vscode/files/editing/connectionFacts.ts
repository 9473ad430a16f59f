import type { LedgerClient } from '../../../core/api/client';
import type { ConnectionProfile } from '../../../core/connections';
import type { Logger } from '../../../core/log';
import type { VettedPackagesState } from '../../../core/models/vetting';
import type { ConnectionManager, ParticipantInfo } from '../../connections/manager';
import type * as vscode from 'vscode';

export interface ConnectedParticipant {
  profile: ConnectionProfile;
  client: LedgerClient;
  info: ParticipantInfo;
}

/** Vetted packages are re-read at most this often for quick fixes (the light bulb asks on every cursor move). */
const VETTED_PACKAGES_TTL_MS = 30_000;

/**
 * What the editing support knows of the active connection: its status (parties, rights, synchronizers)
 * and its vetted packages (package ids with their names), read lazily and cached briefly.
 */
export class ConnectionFacts implements vscode.Disposable {
  private vetted: { profileId: string; at: number; states: Promise<VettedPackagesState[]> } | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connections: ConnectionManager, private readonly logger: Logger) {
    // A reconnect or a changed profile may mean another participant: forget what was read.
    this.subscription = connections.onDidChange(() => (this.vetted = undefined));
  }

  /** The active connection when it is connected; with `connect`, a disconnected one is connected first. */
  async active(signal?: AbortSignal, connect = false): Promise<ConnectedParticipant | undefined> {
    const profile = this.connections.profiles.active();
    if (!profile) return undefined;
    const state = this.connections.state(profile.id);
    if (state.state === 'connected') return { profile, client: this.connections.client(profile), info: state.info };
    if (!connect) return undefined;
    try {
      const info = await this.connections.connect(profile, signal);
      return { profile, client: this.connections.client(profile), info };
    } catch (e) {
      if (signal?.aborted) throw e;
      this.logger.warn(`New file: connection "${profile.name}" is not available, using placeholders (${(e as Error).message})`);
      return undefined;
    }
  }

  /** Parties the active connection's user may act as (empty when not connected or unknown). */
  actAsParties(): string[] {
    const profile = this.connections.profiles.active();
    const state = profile ? this.connections.state(profile.id) : undefined;
    return state?.state === 'connected' ? (state.info.rights?.actAs ?? []) : [];
  }

  /** The vetted packages of the active, connected participant on all synchronizers; undefined when unavailable. */
  async vettedPackages(signal?: AbortSignal): Promise<VettedPackagesState[] | undefined> {
    const participant = await this.active(signal);
    if (!participant) return undefined;
    const fresh = this.vetted && this.vetted.profileId === participant.profile.id && Date.now() - this.vetted.at < VETTED_PACKAGES_TTL_MS;
    if (!fresh) {
      // Shared by every caller within the TTL, so not tied to one caller's signal (the client's timeout bounds it).
      const states = participant.client.listVettedPackages({});
      this.vetted = { profileId: participant.profile.id, at: Date.now(), states };
      // A failed read is not cached: the next light bulb asks again.
      states.catch(() => (this.vetted = undefined));
    }
    try {
      return await this.vetted!.states;
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

  dispose(): void {
    this.subscription.dispose();
  }
}
