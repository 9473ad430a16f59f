/**
 * The preview and the writing tools: a commands file previewed (prepare; nothing submitted) or
 * submitted, a vetting file applied, a DAR uploaded. Every write goes through `connection.write` and
 * the `core/submit` function the CLI and the editor call, and reports the outcome as they do,
 * "unknown" with its safe retry included. A front-end runs a write only after its confirmation
 * (`describeWrite`: exactly what is sent) — VS Code's prepareInvocation, the MCP server's --allow-writes.
 */
import { failureOf } from '../cantonFailure';
import { locateCause } from '../errorCauses';
import { explainFailure } from '../failureExplanation';
import { checkBeforeSending, type Problem } from '../files/validate';
import { packagesInUse } from '../ledger/packages';
import type * as wire from '../models/wire';
import type { Transaction } from '../models/updates';
import { previewText } from '../preview/render';
import { darUploadIsThere, darUploadLookUpText, darUploadSummary, uploadDarWithReport } from '../submit/darUpload';
import { previewFailureAdvice } from '../submit/prepare';
import { commandsOf, prepareRequestOf, submissionOf, submit, submittingParties, type CommandsFileValue } from '../submit/submission';
import { isEmptyDiff } from '../models/vetting';
import { diffLines, diffSummary, sendVetting, vettingRequestOf } from '../submit/vetting';
import { basename } from 'node:path';
import { boundedText, plural, valueText } from './bounds';
import { FILE_PROPERTY, fileKindOfPath, ONE_FILE_INPUT, readAgentFile, type AgentFile } from './files';
import { connectedInfo, defineTool, type AgentContext, type ToolResult } from './tool';


/** A file that does not pass its checks: the problems, and that nothing was sent. */
export class FileProblemsError extends Error {
  override readonly name = 'FileProblemsError';
  constructor(
    readonly file: string,
    readonly problems: readonly Problem[],
  ) {
    super(`${file} has ${plural(problems.filter((p) => p.severity === 'error').length, 'error')}; nothing was sent. Fix them (canton_validate_file lists them with their positions):\n${problems.map((p) => `${file}:${p.line}:${p.column}: ${p.severity}: ${p.message}`).join('\n')}`);
  }
}

/** The file's value when it passes the checks before sending (with the connection's packages, as the CLI's submit); else FileProblemsError. */
async function sendableValue(ctx: AgentContext, file: AgentFile, kind: 'commands' | 'vetting'): Promise<unknown> {
  let checked = checkBeforeSending(kind, file.text);
  if (kind === 'commands' && !checked.problems.some((p) => p.severity === 'error')) {
    await connectedInfo(ctx);
    const packages = packagesInUse(await ctx.connection.readPackages(ctx.signal), () => ({ state: 'none' }));
    if (packages && packages !== 'unavailable') checked = checkBeforeSending(kind, file.text, packages);
  }
  if (checked.problems.some((p) => p.severity === 'error')) throw new FileProblemsError(file.path, checked.problems);
  return checked.value;
}

async function commandsFile(ctx: AgentContext, path: string): Promise<{ file: AgentFile; value: CommandsFileValue }> {
  fileKindOfPath(path, 'commands');
  const file = await readAgentFile(ctx, path, 'json');
  return { file, value: (await sendableValue(ctx, file, 'commands')) as CommandsFileValue };
}

/** A failure of the participant explained (the Failed Commands view's document), with where its cause is written in the file. */
export function explainedFailure(e: unknown, file?: AgentFile): string | undefined {
  const failure = failureOf(e);
  if (!failure) return undefined;
  const at = file && locateCause(failure, file.text);
  return explainFailure(failure, { causeAt: at && { place: `${file!.path}:${at.line}:${at.column}`, what: at.what, match: at.match } });
}

/** What the commands of a file do, one line each: what a confirmation shows and a result names. */
function commandLines(commands: wire.JsCommands): string[] {
  return commands.commands.map((c) => {
    const [kind, body] = Object.entries(c)[0] as [string, Record<string, unknown>];
    const choice = body.choice ? ` choice ${String(body.choice)}` : '';
    const target = body.contractId ? ` on ${String(body.contractId)}` : body.contractKey !== undefined ? ` by key ${valueText(body.contractKey, 200)}` : '';
    const argument = body.createArguments ?? body.choiceArgument;
    return `  ${kind} ${String(body.templateId)}${choice}${target}${argument !== undefined ? ` ${valueText(argument, 600)}` : ''}`;
  });
}

// ---------------------------------------------------------------- preview

/** Prepares the file's commands and renders what they would do; nothing is submitted. */
async function preview(ctx: AgentContext, file: AgentFile, value: CommandsFileValue): Promise<ToolResult> {
  const request = prepareRequestOf(value);
  let result;
  try {
    result = await ctx.connection.client.prepare(request, { signal: ctx.signal });
  } catch (e) {
    const advice = previewFailureAdvice(e, request);
    const explained = explainedFailure(e, file);
    if (!advice && !explained) throw e;
    const text = [`Preview of ${file.path} failed: ${e instanceof Error ? e.message : String(e)}`, ...(advice ? [`Why: ${advice.why}.`, `To do: ${advice.todo}.`] : []), ...(explained ? ['', explained] : [])].join('\n');
    return { text, data: { file: file.path, prepared: false, advice }, isError: true };
  }
  const { preview: p, hash } = ctx.decoders.readPreparedAnswer()(result.raw);
  const text = previewText({ preview: p, hash, raw: result.raw, participant: ctx.connection.profile.name, file: file.path }).trimEnd();
  const verdict = hash.kind === 'verified' ? 'hash verified' : hash.kind === 'mismatch' ? 'HASH MISMATCH: do not sign it' : 'hash not verified';
  return {
    text: boundedText(`${text}\n\nNothing was submitted (a preview). Hash: ${verdict}.`),
    data: { file: file.path, prepared: true, commandId: p.commandId, actAs: p.actAs, hash, roots: p.roots.length, inputContracts: p.inputContracts.length },
    isError: hash.kind === 'mismatch',
  };
}

export const previewCommandsTool = defineTool<{ file: string }>({
  name: 'canton_preview_commands',
  title: 'Preview a commands file',
  description:
    'Shows what a *.commands.json file would do without submitting it: the participant prepares the commands (interactive submission), and the answer is decoded into the transaction it would make (creates, exercises, fetches, who sees each) with the hash verdict (the hash recomputed and compared with the participant\'s). Nothing is submitted; needs only read rights for the parties.',
  inputSchema: ONE_FILE_INPUT,
  access: 'read',
  async run(ctx, input) {
    const { file, value } = await commandsFile(ctx, input.file);
    return preview(ctx, file, value);
  },
});

// ---------------------------------------------------------------- submit

export const submitCommandsTool = defineTool<{ file: string }>({
  name: 'canton_submit_commands',
  title: 'Submit a commands file',
  description:
    'WRITES TO THE LEDGER. Submits a *.commands.json file and waits for its transaction, after the user confirms exactly what is sent. Answers the transaction (update id, offset, events), or the failure with its explanation and where its cause is in the file, or "unknown" (no definite answer came back): then call this again with the same file unchanged — its commandId makes the retry at most once — and never change the commandId. Preview first with canton_preview_commands.',
  inputSchema: ONE_FILE_INPUT,
  access: 'write',
  async describeWrite(ctx, input) {
    const { file, value } = await commandsFile(ctx, input.file);
    const commands = commandsOf(value);
    const lines = [
      `Submit ${file.path} to ${ctx.connection.profile.name} (${ctx.connection.profile.url}):`,
      `commandId ${commands.commandId}; act as ${commands.actAs.join(', ')}${commands.readAs?.length ? `; read as ${commands.readAs.join(', ')}` : ''}.`,
      `${plural(commands.commands.length, 'command')}:`,
      ...commandLines(commands),
    ];
    const shown = await preview(ctx, file, value).catch((e: unknown) => ({ text: `(No preview: ${e instanceof Error ? e.message : String(e)})`, data: undefined, isError: true }));
    return boundedText([...lines, '', shown.isError ? `Preview not available:\n${shown.text}` : shown.text.replace(/\n\nNothing was submitted \(a preview\)\./, '')].join('\n'), 12_000);
  },
  async run(ctx, input) {
    const { file, value } = await commandsFile(ctx, input.file);
    const { request } = submissionOf(value);
    const commandId = request.commands.commandId;
    // The CLI's `submit`: the same request, through the connection, so its ledger state follows.
    const outcome = await ctx.connection.write('transaction', (client, signal) => submit(client, request, { signal }), {
      signal: ctx.signal,
      offsetOf: (o) => (o.kind === 'succeeded' ? o.write.offset : undefined),
    });
    switch (outcome.kind) {
      case 'succeeded':
        return transactionResult(`Submitted ${file.path}: commandId ${commandId} executed`, outcome.transaction, { outcome: 'succeeded' });
      case 'already-executed':
        if (outcome.transaction) return transactionResult(`Already executed: commandId ${commandId} was executed before; it was not executed again`, outcome.transaction, { outcome: 'already-executed' });
        return { text: `Already executed: commandId ${commandId} was executed before (once); it was not executed again. Its transaction is not visible to ${submittingParties(request.commands).join(', ')} in offsets ${outcome.lookUp.fromOffset}–${outcome.lookUp.toOffset ?? '?'}.`, data: { outcome: 'already-executed', commandId } };
      case 'unknown':
        return {
          text: [
            `Outcome UNKNOWN: commandId ${commandId} may or may not have executed (${outcome.error.message}). The request may have reached the participant, but no definite answer came back.`,
            `Do not edit ${file.path} and do not submit it under a new commandId. To retry safely, call canton_submit_commands again with the same file: deduplication on the unchanged commandId makes it at most once (a retry after success answers "already executed" with its transaction).`,
          ].join('\n'),
          data: { outcome: 'unknown', commandId, error: outcome.error.message, retry: { tool: 'canton_submit_commands', file: file.path } },
          isError: true,
        };
      case 'not-sent':
      case 'failed': {
        const explained = explainedFailure(outcome.error, file);
        return {
          text: [`${outcome.kind === 'not-sent' ? 'Not sent' : 'Failed'}: ${file.path} (commandId ${commandId}): ${outcome.error.message}`, ...(explained ? ['', explained] : [`Hint: ${outcome.error.hint}`])].join('\n'),
          data: { outcome: outcome.kind, commandId, error: outcome.error.message, code: failureOf(outcome.error)?.code },
          isError: true,
        };
      }
    }
  },
});

function transactionResult(head: string, t: Transaction, extra: Record<string, unknown>): ToolResult {
  const events = t.events.map((e) => ({ kind: e.kind, templateId: e.templateId, contractId: e.contractId, ...(e.kind === 'exercised' ? { choice: e.choice } : {}) }));
  const lines = [`${head} at offset ${t.offset}, update ${t.updateId}.`, ...events.map((e) => `  ${e.kind} ${e.templateId}${'choice' in e ? ` ${e.choice}` : ''} ${e.contractId}`)];
  return { text: lines.join('\n'), data: { ...extra, offset: t.offset, updateId: t.updateId, commandId: t.commandId, events } };
}

// ---------------------------------------------------------------- vetting

async function vettingFile(ctx: AgentContext, path: string): Promise<{ file: AgentFile; value: wire.UpdateVettedPackagesRequest }> {
  fileKindOfPath(path, 'vetting');
  const file = await readAgentFile(ctx, path, 'json');
  return { file, value: (await sendableValue(ctx, file, 'vetting')) as wire.UpdateVettedPackagesRequest };
}

export const applyVettingTool = defineTool<{ file: string }>({
  name: 'canton_apply_vetting',
  title: 'Apply a vetting file',
  description:
    'WRITES TO THE LEDGER\'S TOPOLOGY. Applies a *.vetting.json file (which packages the participant vets), after the user confirms the change a dry run shows. Checked first with a dry run and applied pinned to the topology serial that check saw; a change already in place is "nothing to apply". An unknown outcome says whether the change is in place now.',
  inputSchema: ONE_FILE_INPUT,
  access: 'write',
  async describeWrite(ctx, input) {
    const { file, value } = await vettingFile(ctx, input.file);
    await connectedInfo(ctx);
    const check = await sendVetting(ctx.connection.client, vettingRequestOf(value, 'dry-run'), ctx.signal);
    const change = check.kind === 'done' ? [`The dry run shows: ${diffSummary(check.result.diff)}`, ...diffLines(check.result.diff)] : [`The dry run could not show the change: ${check.error.message}`];
    return [`Apply ${file.path} to ${ctx.connection.profile.name} (${ctx.connection.profile.url}):`, ...change].join('\n');
  },
  async run(ctx, input) {
    const { file, value } = await vettingFile(ctx, input.file);
    await connectedInfo(ctx);
    // The CLI's `vet`: a dry run (a read), then the apply pinned to the serial it saw, through the connection.
    const check = await sendVetting(ctx.connection.client, vettingRequestOf(value, 'dry-run'), ctx.signal);
    if (check.kind !== 'done') return vettingResult(file, check);
    if (isEmptyDiff(check.result.diff)) return { text: `${file.path}: nothing to apply: the vetted packages already are as it says.`, data: { outcome: 'nothing-to-apply' } };
    const request = vettingRequestOf(value, 'apply', check.result.past?.topologySerial ?? 0);
    return vettingResult(file, await ctx.connection.write('vetting', (client, signal) => sendVetting(client, request, signal), { signal: ctx.signal }));
  },
});

function vettingResult(file: AgentFile, outcome: Awaited<ReturnType<typeof sendVetting>>): ToolResult {
  switch (outcome.kind) {
    case 'done':
      return { text: [`Applied ${file.path}: ${diffSummary(outcome.result.diff)}`, ...diffLines(outcome.result.diff)].join('\n'), data: { outcome: 'applied', serial: outcome.result.next?.topologySerial } };
    case 'already-applied':
      return { text: `Already applied: the vetted packages already are as ${file.path} says (topology serial ${outcome.current.next.topologySerial}); nothing was applied twice.`, data: { outcome: 'already-applied' } };
    case 'unknown': {
      const now = outcome.lookUp.found === 'applied' ? 'A look-up shows the change in place now.' : outcome.lookUp.found === 'not-applied' ? `A look-up shows it not in place (yet): it would still make ${diffSummary(outcome.lookUp.current.diff)}.` : 'Whether it is in place could not be checked.';
      return {
        text: `Outcome UNKNOWN: the vetting change of ${file.path} may or may not have been applied (${outcome.error.message}). ${now} To retry safely, call canton_apply_vetting again with the same file: it is checked again first, so a change in place is not applied twice.`,
        data: { outcome: 'unknown', lookUp: outcome.lookUp.found, error: outcome.error.message },
        isError: outcome.lookUp.found !== 'applied',
      };
    }
    case 'failed':
      return { text: `Failed: ${file.path}: ${outcome.error.message}\n${explainedFailure(outcome.error) ?? `Hint: ${outcome.error.hint}`}`, data: { outcome: 'failed', error: outcome.error.message, failure: outcome.failure }, isError: true };
  }
}

// ---------------------------------------------------------------- DAR upload

export const uploadDarTool = defineTool<{ file: string; vet?: boolean }>({
  name: 'canton_upload_dar',
  title: 'Upload a DAR',
  description:
    'WRITES TO THE PARTICIPANT. Uploads a .dar file (validated first where the participant can) and, unless vet is false, vets its packages, after the user confirms. Answers the packages it held and the vetting change; an unknown outcome says whether its main package is on the participant now (uploading the same DAR again is safe). Needs participant admin rights.',
  inputSchema: {
    type: 'object',
    properties: { file: { ...FILE_PROPERTY, pattern: '\\.dar$' }, vet: { type: 'boolean', description: 'Vet the DAR\'s packages (default true).' } },
    required: ['file'],
    additionalProperties: false,
  },
  access: 'write',
  async describeWrite(ctx, input) {
    const dar = await readAgentFile(ctx, input.file, 'bytes');
    let packages = '';
    try {
      const contents = ctx.decoders.readDar()(dar.bytes);
      const main = contents.packages.find((p) => p.id === contents.mainPackageId);
      packages = `Main package ${main ? `${main.name} ${main.version} ` : ''}(${contents.mainPackageId}); ${plural(contents.packages.length, 'package')} in all.`;
    } catch (e) {
      packages = `Its packages could not be read here (${e instanceof Error ? e.message : String(e)}): the participant judges it.`;
    }
    return [`Upload ${dar.path} (${dar.bytes.length} bytes) to ${ctx.connection.profile.name} (${ctx.connection.profile.url})${input.vet === false ? ' without vetting' : ', vetting its packages'}.`, packages].join('\n');
  },
  async run(ctx, input) {
    const dar = await readAgentFile(ctx, input.file, 'bytes');
    await connectedInfo(ctx);
    // The CLI's `upload-dar`: the same report, the upload through the connection.
    const outcome = await ctx.connection.write(
      'packages',
      (client, signal) => uploadDarWithReport(client, dar.bytes, { mode: 'upload', vetAllPackages: input.vet ?? true, signal, readDar: ctx.decoders.readDar() }),
      { signal: ctx.signal },
    );
    if (outcome.kind === 'unknown') {
      const there = darUploadIsThere(outcome.lookUp);
      return {
        text: `Outcome UNKNOWN: the upload of ${dar.path} may or may not have happened (${outcome.error.message}). ${darUploadLookUpText(outcome.lookUp)}${there ? '' : ' Uploading the same DAR again is safe.'}`,
        data: { outcome: 'unknown', there, error: outcome.error.message },
        isError: !there,
      };
    }
    const r = outcome.result;
    return {
      text: [`Uploaded ${basename(dar.path)}: ${darUploadSummary(r)}`, ...r.packages.slice(0, 30).map((p) => `  ${p.name} ${p.version} ${p.id}${p.main ? ' (main)' : ''}${p.isNew ? ' (new)' : ''}`)].join('\n'),
      data: { outcome: 'uploaded', packages: r.packages.slice(0, 100), vetting: r.vetting.map((v) => ({ diff: v.diff })), vettingUnknown: r.vettingUnknown },
    };
  },
});
