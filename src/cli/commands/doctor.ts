/** `doctor`: connect, and say what the participant's own API description makes of every request the CLI and the extension send. */
import { reportText } from '../../core/compat/wording';
import type { ReportSeverity } from '../../core/compat/report';
import { expectPositionals } from '../args';
import { EXIT_INCOMPATIBLE, EXIT_LIMITED, EXIT_OK, type Command } from '../command';

const NAME = 'doctor';

/** The exit status of a report: its severity. */
export const DOCTOR_EXIT: Record<ReportSeverity, number> = { ok: EXIT_OK, warning: EXIT_LIMITED, error: EXIT_INCOMPATIBLE };

export const doctorCommand: Command = {
  name: NAME,
  synopsis: 'doctor [--json]',
  summary: "Check every request the CLI and the extension send against the participant's own API description",
  details: [
    "Connects, reads the participant's API description (GET /docs/openapi) and prints the compatibility",
    'report: the version, what works, what the participant lacks (endpoints, methods, fields it requires,',
    'enum values, answer fields), and what it has that is not used yet. A participant that does not serve',
    'its description is checked against the version table only, and the report says so.',
    '--json             the report as JSON (severity, operations with their findings, unused endpoints)',
    `Exit status: ${EXIT_OK} nothing found; ${EXIT_LIMITED} something is ignored or not declared (or the version is newer`,
    `than this CLI knows and the participant serves no description); ${EXIT_INCOMPATIBLE} some requests would be refused`,
    '(they are not sent); 1 the participant could not be reached or refused the connect.',
  ],
  options: {},
  async run(ctx, args) {
    expectPositionals(args, NAME, '', 0);
    const connection = ctx.connection();
    await connection.connect(ctx.signal);
    const report = await connection.whenCompatibilityChecked(ctx.signal);
    if (!report) throw new Error('connected without a compatibility report');
    if (ctx.globals.json) await ctx.out(JSON.stringify(report, null, 2));
    else for (const line of reportText(report)) await ctx.out(line);
    return DOCTOR_EXIT[report.severity];
  },
};
