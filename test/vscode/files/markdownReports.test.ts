// Where a report (Explain of a failed command, a vetting diff, a DAR upload) opens, decided from the
// editor area's columns: beside the one column there is, else a full tab in an existing column (never
// a third, narrow one), else the editor area itself.
import assert from 'node:assert/strict';
import { MarkdownReports, REPORT_SCHEME } from '../../../src/vscode/files/submit/textDocuments';
import { commands, fake, Uri, window, workspace } from '../fake/vscode';

describe('MarkdownReports: the column a report opens in', () => {
  let reports: MarkdownReports;
  const editor = (path: string, viewColumn: number) => ({ document: { uri: Uri.file(path) }, viewColumn });
  /** The commands the report ran to open itself, in order (the markdown preview's and the group focus). */
  const opened = () => fake.state.executed.map((c) => c.id).filter((id) => id.startsWith('markdown.') || id.startsWith('workbench.action.focus'));

  beforeEach(() => {
    fake.reset();
    for (const id of ['markdown.showPreview', 'markdown.showLockedPreviewToSide', 'workbench.action.focusFirstEditorGroup', 'workbench.action.focusSecondEditorGroup', 'workbench.action.focusThirdEditorGroup']) commands.registerCommand(id, () => undefined);
    reports = new MarkdownReports();
  });
  afterEach(() => {
    reports.dispose();
    window.visibleTextEditors = [];
    window.activeTextEditor = undefined;
  });

  it('nothing open: the report takes the editor area', async () => {
    const uri = await reports.show('Failed c-1', '# Failed');
    assert.deepEqual(opened(), ['markdown.showPreview']);
    assert.equal(reports.provideTextDocumentContent(uri), '# Failed');
  });

  it('one column: beside it (two halves), locked on the report', async () => {
    const file = editor('/work/a.commands.json', 1);
    window.visibleTextEditors = [file];
    window.activeTextEditor = file;
    await reports.show('Failed c-1', '# Failed');
    assert.deepEqual(opened(), ['markdown.showLockedPreviewToSide']);
  });

  it('two columns, working in the right one: a tab in the left one, not a third column', async () => {
    const file = editor('/work/a.commands.json', 1);
    const preview = editor('/previews/a.json', 2);
    window.visibleTextEditors = [file, preview];
    window.activeTextEditor = preview;
    await reports.show('Failed c-1', '# Failed');
    assert.deepEqual(opened(), ['workbench.action.focusFirstEditorGroup', 'markdown.showPreview']);
  });

  it('three columns, working in the middle: the one to its right', async () => {
    const editors = [editor('/work/a.json', 1), editor('/work/b.json', 2), editor('/work/c.json', 3)];
    window.visibleTextEditors = editors;
    window.activeTextEditor = editors[1];
    await reports.show('Failed c-1', '# Failed');
    assert.deepEqual(opened(), ['workbench.action.focusThirdEditorGroup', 'markdown.showPreview']);
  });
});

// A report shown again may still be open in the workbench (it keeps a closed document a while), which
// takes the new text only after a round trip: the preview opens on the new text, or once the document
// is dropped (the preview then reads it anew), or after the wait when neither comes.
describe('MarkdownReports: a report shown again', () => {
  // Long enough that no stall of a busy machine reaches it where the preview must open on an event; the
  // test of the wait itself uses a short one.
  const WAIT_MS = 10_000;
  const SHORT_WAIT_MS = 200;
  let reports: MarkdownReports;
  /** The text of the report's open document when each preview opened ('(not open)' when none was). */
  let seen: string[];

  beforeEach(() => {
    fake.reset();
    seen = [];
    const record = (...args: unknown[]) => void seen.push((workspace.textDocuments as Array<{ uri: Uri; getText(): string }>).find((d) => d.uri.toString() === String(args[0]))?.getText() ?? '(not open)');
    commands.registerCommand('markdown.showPreview', record);
    reports = new MarkdownReports(50, undefined, WAIT_MS);
  });
  afterEach(() => reports.dispose());

  const reportUri = () => Uri.from({ scheme: REPORT_SCHEME, path: '/preflight_a.commands.json.md' });

  it('the preview opens once the open document holds the new text', async () => {
    const open = fake.openDocument(reportUri(), '# Will fail');
    const started = Date.now();
    const showing = reports.show('preflight/a.commands.json', '# Passes');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(seen, [], 'the preview waited for the document');
    open.setText('# Passes');
    await showing;
    assert.deepEqual(seen, ['# Passes']);
    assert.ok(Date.now() - started < WAIT_MS, 'it opened on the update, not after the wait');
  });

  it('a document the workbench drops meanwhile: the preview opens then, and reads the report anew', async () => {
    fake.openDocument(reportUri(), '# Will fail');
    const showing = reports.show('preflight/a.commands.json', '# Passes');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(seen, []);
    fake.closeDocument(reportUri());
    await showing;
    assert.deepEqual(seen, ['(not open)']);
    assert.equal((await workspace.openTextDocument(reportUri())).getText(), '# Passes');
  });

  it('an update that never comes: the preview opens after the wait, not never', async () => {
    reports.dispose();
    reports = new MarkdownReports(50, undefined, SHORT_WAIT_MS);
    fake.openDocument(reportUri(), '# Will fail');
    const started = Date.now();
    await reports.show('preflight/a.commands.json', '# Passes');
    assert.ok(Date.now() - started >= SHORT_WAIT_MS - 5, `opened after ${Date.now() - started} ms`);
    assert.deepEqual(seen, ['# Will fail']);
  });

  it('a document already up to date, or not open: the preview opens at once', async () => {
    await reports.show('preflight/a.commands.json', '# Passes');
    fake.openDocument(reportUri(), '# Passes\r\n');
    await reports.show('preflight/a.commands.json', '# Passes\n');
    assert.deepEqual(seen, ['(not open)', '# Passes\r\n']);
  });
});
