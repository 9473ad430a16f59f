/**
 * `canton-ledger`: the core from a terminal or CI. `run` does all the work and can be called
 * in-process (tests); the executable's wiring of signals and exit status is the runner's.
 */
import type { Command } from './command';
import { runCommand, runExecutable, type CliIo, type Env } from './runner';
import { acsCommand } from './commands/acs';
import { doctorCommand } from './commands/doctor';
import { eventsCommand } from './commands/events';
import { graphCommand } from './commands/graph';
import { lookupHashCommand } from './commands/lookupHash';
import { mcpCommand } from './commands/mcp';
import { participantCommand } from './commands/participant';
import { pqsCommand } from './commands/pqs';
import { preflightCommand } from './commands/preflight';
import { submitCommand } from './commands/submit';
import { testCommand } from './commands/test';
import { tokenCommand } from './commands/token';
import { updatesCommand } from './commands/updates';
import { uploadDarCommand } from './commands/uploadDar';
import { validateCommand } from './commands/validate';
import { vetCommand } from './commands/vet';

export const COMMANDS: readonly Command[] = [participantCommand, tokenCommand, doctorCommand, updatesCommand, acsCommand, eventsCommand, graphCommand, lookupHashCommand, submitCommand, vetCommand, uploadDarCommand, validateCommand, preflightCommand, pqsCommand, testCommand, mcpCommand];

export type { CliIo, Env };

export function run(argv: readonly string[], env: Env, io: CliIo): Promise<number> {
  return runCommand(COMMANDS, argv, env, io);
}

if (require.main === module) runExecutable(run);
