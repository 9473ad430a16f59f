/**
 * The HS256 shared secret of a demo participant, from the environment or a file: never from argv,
 * where `ps` and shell history would expose it (see `rejectSecretsOnArgv`).
 */
import { readFile } from 'node:fs/promises';
import { stringOption, UsageError, type OptionSpecs, type OptionValues } from './args';
import type { CliContext } from './context';

export const SECRET_ENV = 'CANTON_LEDGER_AUTH_SECRET';

export const SECRET_OPTIONS = {
  'auth-secret-env': { type: 'string' },
  'auth-secret-file': { type: 'string' },
} as const satisfies OptionSpecs;

export const SECRET_DETAILS = [
  `--auth-secret-file F   read the HS256 shared secret from file F (default: $${SECRET_ENV})`,
  '--auth-secret-env VAR  read it from environment variable VAR instead',
];

export interface SharedSecret {
  secret: string;
  /** Where it came from, for messages (never the value). */
  source: string;
}

/**
 * The secret named by the options, else `$CANTON_LEDGER_AUTH_SECRET`; undefined when there is none.
 * It is registered with the redactor, so no error message can show it.
 */
export async function readSharedSecret(ctx: CliContext, values: OptionValues, command: string): Promise<SharedSecret | undefined> {
  const found = await findSecret(values, ctx.env, command);
  ctx.registerSecret(found?.secret);
  return found;
}

async function findSecret(values: OptionValues, env: CliContext['env'], command: string): Promise<SharedSecret | undefined> {
  const file = stringOption(values, 'auth-secret-file');
  const variable = stringOption(values, 'auth-secret-env');
  if (file !== undefined && variable !== undefined) throw new UsageError('give either --auth-secret-file or --auth-secret-env, not both', command);
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read the secret file ${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`, command);
    }
    // Editors and `echo` add a final newline that is not part of the secret.
    const secret = text.replace(/\r?\n$/, '');
    if (!secret) throw new UsageError(`the secret file ${file} is empty`, command);
    return { secret, source: `file ${file}` };
  }
  if (variable !== undefined) {
    const secret = env[variable];
    if (!secret) throw new UsageError(`environment variable ${variable} (from --auth-secret-env) is not set or empty`, command);
    return { secret, source: `$${variable}` };
  }
  const secret = env[SECRET_ENV];
  return secret ? { secret, source: `$${SECRET_ENV}` } : undefined;
}
