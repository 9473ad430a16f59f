/** Previewing a commands file: what to tell people when the participant refuses to prepare (the request is `prepareRequestOf`). */
import { AuthError, CantonApiError, UnsupportedOperationError } from '../errors';

/** Why a preview failed and what to do, where we know more than the error's own hint. */
export interface PreviewAdvice {
  why: string;
  todo: string;
}

export function previewFailureAdvice(e: unknown, request: { commands: unknown[]; actAs: string[]; readAs?: string[] }): PreviewAdvice | undefined {
  if (e instanceof CantonApiError && e.code === 'FAILED_TO_PREPARE_TRANSACTION' && request.commands.length > 1) {
    return {
      why: `the participant prepares one command at a time (Canton 3.4 and later by default), and this file has ${request.commands.length}`,
      todo: 'preview each command alone (a file with one command each), or submit the file without a preview',
    };
  }
  if (e instanceof AuthError && e.failure === 'permission-denied') {
    const parties = [...new Set([...request.actAs, ...(request.readAs ?? [])])];
    return {
      why: `preparing needs ReadAs (or ActAs) rights for every actAs and readAs party (${parties.join(', ')}), and the user lacks one`,
      todo: 'grant the user CanReadAs for those parties, or use a token of a user that has them',
    };
  }
  if (e instanceof UnsupportedOperationError && e.operationName === 'prepare') {
    return { why: 'this participant has no interactive submission service (it came with Canton 3.3)', todo: 'submit the file without a preview, or upgrade the participant' };
  }
  return undefined;
}
