/**
 * `test FILE.ledger.json…`: runs ledger scripts as tests, a line per step, with the same core runner
 * as the editor's Test Explorer; `--junit FILE` writes the JUnit XML that CI systems read.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { readDar } from '../../core/daml/lf/archive';
import { JsonDocument } from '../../core/files/jsonDocument';
import { readRegularFile } from '../../core/localFile';
import { runScript, type ScriptRun, type StepResult } from '../../core/scripts/run';
import { positionOf, SCRIPT_SUFFIX } from '../../core/scripts/script';
import { stringOption, UsageError } from '../args';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTCOME_UNKNOWN, type Command } from '../command';
import type { CliContext } from '../context';
import { readInput } from '../files';
import { formatProblem } from '../format';
import { junitXml, type ScriptReport } from '../junit';

const NAME = 'test';

export const testCommand: Command = {
  name: NAME,
  synopsis: 'test [--junit FILE] FILE.ledger.json…',
  summary: 'Run ledger scripts as tests: a line per step; exit 0 only if every expectation held',
  details: [
    'Each script is checked first (as `validate` would, against the participant\'s parties and packages);',
    'one with an error is refused and nothing of it is sent. The steps run in order; the first step that',
    'fails stops its script (the rest are "not run"), and the next script runs.',
    'Every command a run sends has the id ledger-script-<run id>-step-<n>, unique per run.',
    '--junit FILE       also write the results as JUnit XML (one testsuite per script, a testcase per step)',
    'Exit 0: every step of every script passed; 1: a step failed or a script was refused;',
    '3: a step\'s outcome is unknown (the line names the command id to look up; nothing is re-sent);',
    '130: interrupted (Ctrl-C): the steps that ran, the one stopped and those not run are reported.',
  ],
  options: { junit: { type: 'string' } },
  async run(ctx, args) {
    if (args.positionals.length === 0) throw new UsageError('missing FILE.ledger.json', NAME);
    for (const file of args.positionals) if (!file.toLowerCase().endsWith(SCRIPT_SUFFIX)) throw new UsageError(`${file}: a ledger script's name ends in ${SCRIPT_SUFFIX}`, NAME);
    const junit = stringOption(args.values, 'junit');
    const reports: ScriptReport[] = [];
    let interrupted = false;
    for (const file of args.positionals) {
      const text = await readInput(file, NAME);
      const startedAt = new Date().toISOString();
      const result: ScriptRun | undefined = interrupted ? undefined : await runScript(ctx.connection(), text, { signal: ctx.signal, readFile: (path, maxBytes) => readRegularFile(resolve(dirname(file), path), maxBytes), readDar });
      if (!result) continue;
      reports.push({ file, text, run: result, startedAt });
      await printRun(ctx, file, text, result);
      interrupted ||= result.status === 'interrupted';
    }
    await ctx.out(summary(reports.map((r) => r.run), args.positionals.length));
    if (junit) await writeFile(junit, ctx.masked(junitXml(reports)));
    const statuses = new Set(reports.map((r) => r.run.status));
    if (interrupted) return EXIT_INTERRUPTED;
    if (statuses.has('unknown')) return EXIT_OUTCOME_UNKNOWN;
    return statuses.has('failed') || statuses.has('refused') ? EXIT_FAILURE : EXIT_OK;
  },
};

const MARK: Record<StepResult['status'], string> = { passed: 'ok', failed: 'FAIL', unknown: 'UNKNOWN', 'not-run': 'not run' };

async function printRun(ctx: CliContext, file: string, text: string, run: ScriptRun): Promise<void> {
  await ctx.out(`${file} (run ${run.runId})`);
  if (run.status === 'refused') {
    for (const p of run.problems) await ctx.out(`  ${formatProblem(file, p)}`);
    await ctx.out(`  refused: fix the errors above; nothing was sent.`);
    return;
  }
  const doc = new JsonDocument(text);
  for (const s of run.steps) {
    const why = s.status === 'not-run' ? ` (${s.notRunBecause === 'cancelled' ? 'cancelled' : 'an earlier step did not pass'})` : '';
    const time = s.status === 'not-run' ? '' : ` ${Math.round(s.durationMs)} ms`;
    await ctx.out(`  ${MARK[s.status].padEnd(7)} ${s.index + 1}. ${s.name}${why}${time}${s.summary && s.status === 'passed' ? ` — ${s.summary}` : ''}`);
    for (const f of s.failures) {
      const at = positionOf(doc, f.pointer);
      await ctx.out(`          ${file}:${at.line}:${at.column}: ${f.message}`);
      if (f.expected !== undefined) await ctx.out(`            expected: ${f.expected}`);
      if (f.actual !== undefined) await ctx.out(`            actual:   ${f.actual}`);
    }
  }
}

function summary(runs: ScriptRun[], files: number): string {
  const steps = runs.flatMap((r) => r.steps);
  const n = (status: StepResult['status']) => steps.filter((s) => s.status === status).length;
  const passed = runs.filter((r) => r.status === 'passed').length;
  const notRunScripts = files - runs.length;
  return `${files} script${files === 1 ? '' : 's'}: ${passed} passed, ${runs.length - passed} did not${notRunScripts ? `, ${notRunScripts} not run` : ''}; steps: ${n('passed')} passed, ${n('failed')} failed, ${n('unknown')} unknown, ${n('not-run')} not run`;
}
