// Where a report (Explain of a failed command, a vetting diff, a DAR upload) opens, decided from the
// editor area's columns: beside the one column there is, else a full tab in an existing column (never
// a third, narrow one), else the editor area itself.
import assert from 'node:assert/strict';
import { MarkdownReports } from '../../../src/vscode/files/submit/textDocuments';
import { commands, fake, Uri, window } from '../fake/vscode';

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
