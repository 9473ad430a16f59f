/**
 * `upload-dar FILE.dar`: validate and upload a DAR (or only validate it), then print the report the
 * editor's Upload DAR shows: the DAR's packages (new or already there) and the vetting change.
 */
import { basename } from 'node:path';
import type { LedgerClient } from '../../core/api/client';
import { CancelledError, UnsupportedOperationError } from '../../core/errors';
import { readDar } from '../../core/daml/lf/archive';
import { MAX_DAR_BYTES } from '../../core/localFile';
import { darUploadAbilities, darUploadIsThere, darUploadLookUpText, darUploadMarkdown, uploadDarWithReport } from '../../core/submit/darUpload';
import { expectPositionals, flag, stringOption, UsageError } from '../args';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTCOME_UNKNOWN, type Command } from '../command';
import { readUserFile } from '../files';
import { reportOutcomeUnknown, retryCommandLines } from '../retry';

const NAME = 'upload-dar';

export const uploadDarCommand: Command = {
  name: NAME,
  synopsis: 'upload-dar FILE.dar [--no-vet | --validate-only] [--synchronizer ID]',
  summary: 'Upload a DAR (validated first where the version can) and show its packages and the vetting change',
  details: [
    '--no-vet           store the packages without vetting them (Canton 3.4+); vet later with a',
    '                   *.vetting.json file',
    '--validate-only    check the DAR as an upload would (Canton 3.4+); nothing is changed',
    '--synchronizer ID  the synchronizer to vet on (or validate for) when the participant has several',
    '--json             the report as JSON',
    'Needs participant admin rights. The report is the editor\'s Upload DAR report, as Markdown.',
    'An upload whose answer is lost (timeout, dropped connection, 502/504) is reported as an unknown',
    'outcome, then the participant\'s packages are listed: exit 0 when the DAR\'s main package is there',
    'now, else exit 3. It is never re-sent by itself; uploading the same DAR again is safe.',
  ],
  options: { 'no-vet': { type: 'boolean' }, 'validate-only': { type: 'boolean' }, synchronizer: { type: 'string' } },
  async run(ctx, args) {
    const [file] = expectPositionals(args, NAME, 'FILE.dar', 1);
    const validateOnly = flag(args.values, 'validate-only');
    const noVet = flag(args.values, 'no-vet');
    if (validateOnly && noVet) throw new UsageError('--validate-only and --no-vet exclude each other: a validation vets nothing', NAME);
    const dar = await readUserFile(file, MAX_DAR_BYTES, NAME);
    const connection = ctx.connection();
    const client = connection.client;
    const abilities = await darUploadAbilities(client, ctx.signal);
    const version = (await client.capabilities(ctx.callOptions)).version;
    if (validateOnly && !abilities.canValidate) throw new UnsupportedOperationError('Validating a DAR without uploading it', version, 'validateDar');
    if (noVet && !abilities.canChooseVetting) throw new UnsupportedOperationError('Uploading a DAR without vetting it', version, 'uploadDar');
    const send = (c: LedgerClient, signal: AbortSignal | undefined) =>
      uploadDarWithReport(c, dar, {
        mode: validateOnly ? 'validate' : 'upload',
        // As the editor's "Upload and Vet" / "Upload without Vetting".
        vetAllPackages: validateOnly ? undefined : !noVet,
        synchronizerId: stringOption(args.values, 'synchronizer'),
        signal,
        readDar,
      });
    // A validation changes nothing; an upload is a write, through the connection.
    const outcome = validateOnly ? await send(client, ctx.signal) : await connection.write('packages', send, { signal: ctx.signal });
    if (outcome.kind === 'unknown') {
      const there = darUploadIsThere(outcome.lookUp);
      reportOutcomeUnknown(ctx, outcome.error, [
        `The upload of ${file} may or may not have happened: it reached the participant, but no definite answer came back.`,
        darUploadLookUpText(outcome.lookUp),
        ...(there ? [] : ['To upload it again:', ...retryCommandLines(ctx)]),
      ]);
      const lookUp = outcome.lookUp.found === 'not-checked' ? { found: outcome.lookUp.found, error: outcome.lookUp.error.message } : outcome.lookUp;
      if (ctx.globals.json) await ctx.out(JSON.stringify({ outcome: 'unknown', error: outcome.error.message, lookUp }, null, 2));
      if (there) return EXIT_OK;
      return outcome.error instanceof CancelledError ? EXIT_INTERRUPTED : EXIT_OUTCOME_UNKNOWN;
    }
    if (ctx.globals.json) await ctx.out(JSON.stringify(outcome.result, null, 2));
    else await ctx.out(darUploadMarkdown(outcome.result, basename(file), ctx.globals.url).trimEnd());
    return EXIT_OK;
  },
};
