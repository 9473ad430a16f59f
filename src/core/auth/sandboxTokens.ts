/**
 * Sandbox tokens (HS256, shared secret) for connections that leave the participant id empty: the
 * audience form needs it, so it is read from the participant once (`GET /v2/parties/participant-id`)
 * with a scope-form token of the same user — accepted by a participant unless it is configured with a
 * target audience, in which case the connection must name the audience itself.
 */
import { mintSandboxToken, type SandboxTokenOptions } from './jwt';

export interface SandboxMinterOptions extends Omit<SandboxTokenOptions, 'participantId' | 'now'> {
  /** The connection's participant id; empty or undefined: read from the participant when needed. */
  participantId?: string;
  /** Asks the participant for its id, sending `token`. */
  readParticipantId: (token: string, signal?: AbortSignal) => Promise<string>;
}

/**
 * A token source that mints a sandbox token per call; the participant id it reads (only for the
 * audience form without a participant id or audience) is kept for the source's lifetime. A failed read
 * is not kept: the next call asks again.
 */
export function sandboxTokenMinter(o: SandboxMinterOptions): (signal?: AbortSignal) => Promise<string> {
  const needsRead = o.form === 'audience' && !o.participantId?.trim() && !o.audience;
  let participantId: Promise<string> | undefined;
  const readId = (signal?: AbortSignal) => {
    participantId ??= mintSandboxToken({ ...o, form: 'scope' })
      .then((scopeToken) => o.readParticipantId(scopeToken, signal))
      .catch((e: unknown) => {
        participantId = undefined;
        throw e;
      });
    return participantId;
  };
  return async (signal) => mintSandboxToken({ ...o, participantId: needsRead ? await readId(signal) : o.participantId?.trim() });
}
