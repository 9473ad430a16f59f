/**
 * `token --user ID --participant-id P`: mints a short-lived HS256 user token for a participant that
 * checks tokens with a shared secret (the demo participant, a sandbox with `unsafe-jwt-hmac-256`).
 * The token goes to stdout so that it can be captured into CANTON_LEDGER_TOKEN without showing it.
 */
import { DEFAULT_MAX_TOKEN_LIFETIME_SECONDS, mintSandboxToken } from '../../core/auth/jwt';
import { expectPositionals, stringOption, UsageError } from '../args';
import { EXIT_OK, type Command } from '../command';
import { TOKEN_ENV } from '../context';
import { readSharedSecret, SECRET_DETAILS, SECRET_ENV, SECRET_OPTIONS } from '../secret';

const NAME = 'token';

export const tokenCommand: Command = {
  name: NAME,
  synopsis: 'token --user ID --participant-id P [--auth-secret-file F | --auth-secret-env VAR]',
  summary: 'Mint a user token for a participant with a shared secret (demo participant, sandboxes)',
  details: [
    '--user ID              the participant user the token is for (its sub)',
    '--participant-id P     the participant id, for the token audience (the participant command prints it)',
    ...SECRET_DETAILS,
    `The token expires after ${DEFAULT_MAX_TOKEN_LIFETIME_SECONDS - 30} s (Canton accepts at most 5 minutes by default). Use it as:`,
    `  export ${TOKEN_ENV}="$(canton-ledger token --user alice --participant-id P)"`,
  ],
  options: { user: { type: 'string' }, 'participant-id': { type: 'string' }, ...SECRET_OPTIONS },
  async run(ctx, args) {
    expectPositionals(args, NAME, '', 0);
    const userId = stringOption(args.values, 'user');
    const participantId = stringOption(args.values, 'participant-id');
    if (!userId) throw new UsageError(`missing --user ID`, NAME);
    if (!participantId) throw new UsageError(`missing --participant-id P`, NAME);
    const shared = await readSharedSecret(ctx, args.values, NAME);
    if (!shared) throw new UsageError(`no shared secret: set ${SECRET_ENV} or pass --auth-secret-file F`, NAME);
    const token = await mintSandboxToken({ secret: shared.secret, userId, form: 'audience', participantId });
    // Written directly: `ctx.out` masks the configured token, and this is a new one the user asked for.
    ctx.io.stdout.write(token + '\n');
    return EXIT_OK;
  },
};
