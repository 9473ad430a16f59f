// The Preview command's controller against the fake VS Code API and a demo participant: the verdict on
// the hash (verified, or loudly not: an error in the document and no "Submit now"), the columns the
// preview and its submission take (the result never over the preview, never a third column), and a preview submitted once that says so and
// opens the result instead of submitting again.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DemoParticipant } from '../../../src/participant';
import { readPreparedAnswer } from '../../../src/core/preview';
import { Commands } from '../../../src/vscode/kit/ids';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { PreviewActions, PreviewCodeLensProvider, PreviewController } from '../../../src/vscode/files/submit/preview';
import { SubmitController } from '../../../src/vscode/files/submit/submit';
import type { FaultProxy } from '../../support/faultProxy';
import { DiagnosticSeverity, fake, MemoryMemento, Uri, ViewColumn, window } from '../fake/vscode';
import { openCommandsFile, participantBehindProxy, sendWindow, type SendWindow } from './sendHarness';

interface Editor {
  document: { uri: Uri; getText(): string };
  viewColumn: number;
}

describe('PreviewController (the Preview command) against the fake VS Code API', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let proxy: FaultProxy;
  let w: SendWindow;
  let history: SubmissionHistory;
  let previews: PreviewController;
  let submit: SubmitController;
  const shows: { folder: string; name: string; value: unknown; viewColumn?: number }[] = [];
  const contents = new Map<string, string>();
  const source = Uri.file('/work/iou.commands.json');

  /** VS Code's editor area, as far as the controllers see it: the source file in column 1, and what they show. */
  const editors: Editor[] = [];
  const editorOf = (uri: Uri): Editor => ({ document: { uri, getText: () => contents.get(uri.toString()) ?? '' }, viewColumn: 1 });
  const documents = {
    put(folder: string, name: string, value: unknown) {
      const uri = Uri.from({ scheme: 'canton-ledger', path: `/${folder}/${name}.json` });
      contents.set(uri.toString(), JSON.stringify(value, null, 2) + '\n');
      return uri;
    },
    async show(folder: string, name: string, value: unknown, options: { viewColumn?: number; preserveFocus?: boolean } = {}) {
      const uri = documents.put(folder, name, value);
      shows.push({ folder, name, value, viewColumn: options.viewColumn });
      const active = window.activeTextEditor as Editor | undefined;
      const column = options.viewColumn === ViewColumn.Beside ? (active?.viewColumn ?? 1) + 1 : options.viewColumn === ViewColumn.Active || options.viewColumn === undefined ? (active?.viewColumn ?? 1) : options.viewColumn;
      const editor = { ...editorOf(uri), viewColumn: column };
      // One visible editor per column: the new one takes its column's place.
      editors.splice(0, editors.length, ...editors.filter((e) => e.viewColumn !== column), editor);
      if (!options.preserveFocus) window.activeTextEditor = editor;
      return editor;
    },
  };
  const columns = () => new Set(editors.map((e) => e.viewColumn)).size;

  const suite = participantBehindProxy();
  const writeFile = (commandId: string) => openCommandsFile(source, p, commandId);
  before(() => ({ participant: p, proxy } = suite));

  beforeEach(async () => {
    shows.length = 0;
    w = await sendWindow(proxy.url, { documents: documents as never });
    const sourceEditor = editorOf(source);
    editors.splice(0, editors.length, sourceEditor);
    window.visibleTextEditors = editors;
    window.activeTextEditor = sourceEditor;
    history = new SubmissionHistory(new MemoryMemento() as never);
    submit = new SubmitController(w.deps, history, w.prompts, () => undefined);
    previews = new PreviewController(w.deps, submit, w.prompts, () => undefined, () => readPreparedAnswer, history);
  });
  afterEach(() => {
    previews.dispose();
    history.dispose();
    w.dispose();
    proxy.clear();
    window.visibleTextEditors = [];
    window.activeTextEditor = undefined;
  });

  const lensTitles = (uri: Uri) => new PreviewCodeLensProvider(previews).provideCodeLenses({ uri } as never).map((l) => l.command?.title ?? '');

  it('a verified hash: said in the document, the message and the lens; "Submit now" offered', async () => {
    writeFile(`unit-${randomUUID()}`);
    const outcome = await previews.previewFile(source);
    assert.equal(outcome.hash?.kind, 'verified');
    assert.match(String(outcome.document?.hashCheck), /^hash verified \(V2\)/);
    const message = fake.state.messages.at(-1)!;
    assert.equal(message.severity, 'info');
    assert.match(message.text, /Hash verified \(V2\)\.$/);
    assert.deepEqual(message.actions, [PreviewActions.submitNow]);
    assert.deepEqual(lensTitles(outcome.resultUri!), ['$(pass) Hash verified (V2)', '$(play) Submit now', '$(type-hierarchy) Show Graph']);
    assert.equal(fake.state.diagnostics.size, 0);
  });

  it('a hash that does not match: an error in the document (Problems), "do not sign" first, no "Submit now" in the message', async () => {
    writeFile(`unit-${randomUUID()}`);
    const forged = Buffer.alloc(32, 3).toString('base64');
    proxy.add({ method: 'POST', path: '/v2/interactive-submission/prepare', fault: { kind: 'rewrite-json', rewrite: (body) => ({ ...(body as object), preparedTransactionHash: forged }) } });
    const outcome = await previews.previewFile(source);
    assert.equal(outcome.hash?.kind, 'mismatch');
    const message = fake.state.messages.at(-1)!;
    assert.equal(message.severity, 'error');
    assert.match(message.text, /DO NOT SIGN/);
    assert.deepEqual(message.actions, []);
    const problems = fake.state.diagnostics.get(outcome.resultUri!.toString()) ?? [];
    const lines = contents.get(outcome.resultUri!.toString())!.split('\n');
    assert.deepEqual(problems.map((d) => [d.severity, lines[d.range.start.line].trim().split(':')[0]]), [
      [DiagnosticSeverity.Error, '"warning"'],
      [DiagnosticSeverity.Error, '"hashCheck"'],
    ]);
    assert.match(problems[0].message, /^HASH DOES NOT MATCH \(V2\): the participant sent (03){32}/);
    assert.equal(lensTitles(outcome.resultUri!)[0], '$(error) Hash does not match (V2): do not sign');
  });

  it('Preview, then "Submit now" from the preview (focused): the result opens in the file\'s column, the preview and its lenses stay in view (no third column)', async () => {
    writeFile(`unit-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    assert.equal(columns(), 2, 'the preview opened beside the file');
    const previewColumn = editors.find((e) => e.document.uri.toString() === resultUri!.toString())!.viewColumn;
    // The user clicks into the preview and runs its "Submit now" lens.
    window.activeTextEditor = editors.find((e) => e.viewColumn === previewColumn);
    const submitted = await previews.submitPreviewed(resultUri);
    assert.equal(submitted.record?.outcome, 'succeeded');
    assert.equal(shows.at(-1)!.folder, 'submissions');
    assert.notEqual(shows.at(-1)!.viewColumn, previewColumn, 'the result did not cover the preview');
    assert.ok(editors.some((e) => e.document.uri.toString() === resultUri!.toString()), 'the preview is still in view');
    assert.ok(editors.some((e) => e.document.uri.toString() === submitted.resultUri!.toString()), 'the result is in view');
    assert.equal(columns(), 2);
    // Open Result from the preview's lens again: the result's own column, not the preview's.
    await submit.openResult(submitted.record!);
    assert.equal(shows.at(-1)!.viewColumn, editors.find((e) => e.document.uri.toString() === submitted.resultUri!.toString())!.viewColumn);
    assert.ok(editors.some((e) => e.document.uri.toString() === resultUri!.toString()), 'the preview is still in view');
  });

  it('Submit now from the file while the preview is beside it: the result covers neither the preview nor opens a third column', async () => {
    writeFile(`unit-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    // The focus stayed in the file (the preview opened without taking it).
    assert.equal((window.activeTextEditor as Editor).document.uri.toString(), source.toString());
    const submitted = await submit.submitFile(source);
    assert.equal(submitted.record?.outcome, 'succeeded');
    assert.ok(editors.some((e) => e.document.uri.toString() === resultUri!.toString()), 'the preview is still in view');
    assert.equal(columns(), 2);
  });

  it('a preview alone in the editor area (full width): its result opens beside it, one half each', async () => {
    writeFile(`unit-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    // The user closes the file: the preview alone, in the first column, focused.
    const preview = { ...editors.find((e) => e.document.uri.toString() === resultUri!.toString())!, viewColumn: 1 };
    editors.splice(0, editors.length, preview);
    window.activeTextEditor = preview;
    await previews.submitPreviewed(resultUri);
    assert.equal(shows.at(-1)!.viewColumn, ViewColumn.Beside);
    assert.deepEqual(editors.map((e) => e.viewColumn).sort(), [1, 2]);
  });

  it('two columns with the file in the right one: the preview opens in the left one, not in a third', async () => {
    writeFile(`unit-${randomUUID()}`);
    const other = { ...editorOf(Uri.file('/work/notes.md')), viewColumn: 1 };
    const file = { ...editorOf(source), viewColumn: 2 };
    editors.splice(0, editors.length, other, file);
    window.activeTextEditor = file;
    await previews.previewFile(source);
    assert.equal(shows.at(-1)!.viewColumn, 1);
    assert.equal(columns(), 2);
  });

  it('a preview submitted once says so, and its "Submit now" opens the result instead of sending again (no "Already executed")', async () => {
    const commandId = `unit-${randomUUID()}`;
    writeFile(commandId);
    fake.answerMessage(PreviewActions.submitNow);
    const first = await previews.previewFile(source);
    assert.equal(first.next?.record?.outcome, 'succeeded');
    const end = p.state.ledgerEnd;
    const doc = JSON.parse(contents.get(first.resultUri!.toString())!) as Record<string, unknown>;
    assert.equal(Object.keys(doc)[0], 'submitted');
    assert.match(String(doc.submitted), new RegExp(`^Submitted since this preview \\(succeeded: update [0-9a-f]+ at offset ${first.next!.record!.offset}\\)`));
    const lenses = new PreviewCodeLensProvider(previews).provideCodeLenses({ uri: first.resultUri } as never);
    assert.deepEqual(lenses.map((l) => [l.command?.title, l.command?.command]).at(1), ['$(check) Submitted (succeeded): Open Result', Commands.openSubmissionResult]);
    // Show Graph hands the command the prepared transaction the preview decoded; once submitted, Compare
    // with Committed hands it that and the update the commands committed.
    const graph = lenses.at(-2)!.command!;
    assert.equal(graph.command, Commands.showTransactionGraph);
    assert.equal((graph.arguments![0] as { prepared: { preview: { commandId: string } } }).prepared.preview.commandId, first.preview!.commandId);
    const compare = lenses.at(-1)!.command!;
    assert.deepEqual([compare.title, compare.command], ['$(diff) Compare with Committed', Commands.comparePreviewWithCommitted]);
    const handed = compare.arguments![0] as { prepared: { preview: { commandId: string } }; updateId: string };
    assert.deepEqual([handed.prepared.preview.commandId, handed.updateId], [first.preview!.commandId, first.next!.record!.updateId]);

    fake.answerMessage(PreviewActions.openResult);
    const again = await previews.submitPreviewed(first.resultUri);
    assert.equal(p.state.ledgerEnd, end, 'nothing was sent again');
    const message = fake.state.messages.at(-1)!;
    assert.match(message.text, new RegExp(`^This preview was submitted already \\(commandId ${commandId}, succeeded\\): it is not submitted again\\.$`));
    assert.equal(again.record?.id, first.next!.record!.id);
    assert.equal(shows.at(-1)!.folder, 'submissions', 'Open Result showed the transaction');
    assert.ok(!fake.state.messages.some((m) => /Already executed/i.test(m.text)));
  });

  /** The preview's lenses as [line, title without its icon]. */
  const lensRows = (uri: Uri) => new PreviewCodeLensProvider(previews).provideCodeLenses({ uri } as never).map((l): [number, string] => [l.range.start.line, (l.command?.title ?? '').replace(/^\$\([a-z-]+\) /, '')]);
  /** Each row reads whole in half of a 1400-pixel window beside the side bar: about 60 characters, the lenses' separators and icons included. */
  const assertRowsFitHalfWidth = (rows: [number, string][]) => {
    for (const line of new Set(rows.map(([l]) => l))) {
      const titles = rows.filter(([l]) => l === line).map(([, title]) => title);
      const row = titles.join(' | ');
      const width = row.length + 2 * titles.length;
      assert.ok(width <= 60, `row ${line} "${row}" takes ${width} characters with its icons`);
    }
  };

  it('before submission, every lens whole in the half-width column beside the file: the verdict, a short "Submit now" and "Show Graph" in one row; with the longer "do not sign", "Show Graph" on the next line', async () => {
    writeFile(`unit-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    const rows = lensRows(resultUri!);
    // One row: the preview's first screen keeps what it would do.
    assert.deepEqual(rows, [
      [0, 'Hash verified (V2)'],
      [0, 'Submit now'],
      [0, 'Show Graph'],
    ]);
    assertRowsFitHalfWidth(rows);
    const submitNow = new PreviewCodeLensProvider(previews).provideCodeLenses({ uri: resultUri } as never)[1].command!;
    assert.equal(submitNow.tooltip, 'Submits the same file with the same commandId');

    // The longest verdict: "do not sign".
    writeFile(`unit-${randomUUID()}`);
    const forged = Buffer.alloc(32, 3).toString('base64');
    proxy.add({ method: 'POST', path: '/v2/interactive-submission/prepare', fault: { kind: 'rewrite-json', rewrite: (body) => ({ ...(body as object), preparedTransactionHash: forged }) } });
    const mismatch = await previews.previewFile(source);
    assert.equal(mismatch.hash?.kind, 'mismatch');
    const mismatchRows = lensRows(mismatch.resultUri!);
    assert.deepEqual(mismatchRows, [
      [0, 'Hash does not match (V2): do not sign'],
      [0, 'Submit now'],
      [1, 'Show Graph'],
    ]);
    assertRowsFitHalfWidth(mismatchRows);
  });

  it('once submitted, the lenses in two rows, each short enough for the half-width column beside the result: the verdict and Open Result on top, Show Graph and Compare with Committed on the next line', async () => {
    writeFile(`unit-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    window.activeTextEditor = editors.find((e) => e.document.uri.toString() === resultUri!.toString());
    assert.equal((await previews.submitPreviewed(resultUri)).record?.outcome, 'succeeded');
    const rows = lensRows(resultUri!);
    assert.deepEqual(rows, [
      [0, 'Hash verified (V2)'],
      [0, 'Submitted (succeeded): Open Result'],
      [1, 'Show Graph'],
      [1, 'Compare with Committed'],
    ]);
    assertRowsFitHalfWidth(rows);
  });

  it('the preview says it was submitted while the success message is still open, also when the file itself was submitted', async () => {
    writeFile(`unit-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    let whileOpen: string[] = [];
    // The success message stays until the user answers it: by then the preview must already say so.
    fake.answerMessage((m) => void (whileOpen = /^Transaction /.test(m.text) ? lensTitles(resultUri!) : ['not the success message']));
    const outcome = await submit.submitFile(source);
    assert.equal(outcome.record?.outcome, 'succeeded');
    assert.deepEqual(whileOpen.at(1), '$(check) Submitted (succeeded): Open Result');
  });
});
