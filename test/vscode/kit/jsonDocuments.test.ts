// A JSON document shown again (the same update or contract opened twice) may still be open in the
// workbench with the old text, which takes the new one only after a round trip: the editor opens on
// the new text, or after the wait when the update never comes.
import assert from 'node:assert/strict';
import { DOCUMENT_SCHEME, JsonDocuments } from '../../../src/vscode/kit/documents';
import { fake, Uri } from '../fake/vscode';

describe('JsonDocuments: a document shown again', () => {
  // Long enough that no stall of a busy machine reaches it where the editor must open on an event; the
  // test of the wait itself uses a short one.
  const WAIT_MS = 10_000;
  const SHORT_WAIT_MS = 200;
  let documents: JsonDocuments;
  const uri = () => Uri.from({ scheme: DOCUMENT_SCHEME, path: '/updates/u-1.json' });

  beforeEach(() => {
    fake.reset();
    documents = new JsonDocuments(200, WAIT_MS);
  });
  afterEach(() => documents.dispose());

  it('the editor opens once the open document holds the new value', async () => {
    const open = fake.openDocument(uri(), '{\n  "offset": 1\n}\n');
    const showing = documents.show('updates', 'u-1', { offset: 2 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(fake.state.shownDocuments.length, 0, 'the editor waited for the document');
    open.setText(documents.provideTextDocumentContent(uri()));
    const editor = (await showing) as unknown as { document: { getText(): string } };
    assert.deepEqual(JSON.parse(editor.document.getText()), { offset: 2 });
  });

  it('an update that never comes: the editor opens after the wait', async () => {
    documents.dispose();
    documents = new JsonDocuments(200, SHORT_WAIT_MS);
    fake.openDocument(uri(), '{\n  "offset": 1\n}\n');
    const started = Date.now();
    await documents.show('updates', 'u-1', { offset: 2 });
    assert.ok(Date.now() - started >= SHORT_WAIT_MS - 5, `opened after ${Date.now() - started} ms`);
    assert.equal(fake.state.shownDocuments.length, 1);
  });
});
