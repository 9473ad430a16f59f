// The traffic cost a preview's participant estimates (the prepare answer's `costEstimation`) travels
// with the preview's CodeLenses to the graph: Show Graph draws the preview with the estimate in its
// header, and once the commands are submitted Compare with Committed puts the paid cost beside it.
// Against the fake VS Code API and a demo participant, through the commands the lenses run.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { silentLogger } from '../../../src/core/log';
import { readPreparedAnswer } from '../../../src/core/preview';
import { Redactor } from '../../../src/core/redact';
import type { ToWebview } from '../../../src/core/graph/viewProtocol';
import type { DemoParticipant } from '../../../src/participant';
import { SubmissionHistory } from '../../../src/vscode/files/submit/history';
import { PreviewCodeLensProvider, PreviewController } from '../../../src/vscode/files/submit/preview';
import { SubmitController } from '../../../src/vscode/files/submit/submit';
import { registerGraphs } from '../../../src/vscode/graph/graphCommands';
import { Commands } from '../../../src/vscode/kit/ids';
import { ErrorReporter, PromptsPort } from '../../../src/vscode/kit/prompts';
import { CommandRegistry } from '../../../src/vscode/kit/registry';
import { windowPrompts } from '../../../src/vscode/kit/ui';
import { start } from '../../participant/helpers';
import { REPO_ROOT } from '../../support/spec';
import { openCommandsFile, sendWindow, type SendWindow } from '../files/sendHarness';
import { firstPosted } from './posted';
import { commands, fake, MemoryMemento, Uri, workspace, type FakeWebviewPanel } from '../fake/vscode';

/** The document the panel was sent, once the glue has read and built it. */
async function drawn(panel: FakeWebviewPanel): Promise<Extract<ToWebview, { type: 'document' }>['document']> {
  const m = await firstPosted(panel, ['document', 'error']);
  if (m.type === 'error') throw new Error(`the panel shows an error: ${m.title}: ${m.message}`);
  return (m as Extract<ToWebview, { type: 'document' }>).document;
}

describe('graph commands from a preview: the participant’s cost estimate reaches Show Graph and Compare with Committed', function () {
  this.timeout(30_000);
  let p: DemoParticipant;
  let w: SendWindow;
  let history: SubmissionHistory;
  let previews: PreviewController;
  let registry: CommandRegistry;
  let graphs: ReturnType<typeof registerGraphs>;
  const source = Uri.file('/work/iou.commands.json');
  /** The JSON documents the controllers open (the preview, the submission's result), each as an editor. */
  const documents = {
    put: (folder: string, name: string) => Uri.from({ scheme: 'canton-ledger', path: `/${folder}/${name}.json` }),
    async show(folder: string, name: string) {
      return { document: { uri: documents.put(folder, name), getText: () => '' }, viewColumn: 1 };
    },
  };

  before(async () => {
    p = await start({ port: 0 });
  });
  after(async () => {
    workspace.textDocuments.splice(0);
    await p.close();
  });
  beforeEach(async () => {
    w = await sendWindow(p.url, { documents: documents as never });
    history = new SubmissionHistory(new MemoryMemento() as never);
    const submit = new SubmitController(w.deps, history, w.prompts, () => undefined);
    previews = new PreviewController(w.deps, submit, w.prompts, () => undefined, () => readPreparedAnswer, history);
    registry = new CommandRegistry(commands, new ErrorReporter(silentLogger, new Redactor(), new PromptsPort(windowPrompts), () => undefined), w.deps.targets);
    graphs = registerGraphs(registry, { extensionUri: Uri.file(REPO_ROOT) as never, connections: w.manager, documents: {} as never, logger: silentLogger, redactor: new Redactor(), prompts: w.prompts() });
  });
  afterEach(() => {
    graphs.registrations.forEach((r) => r.dispose());
    registry.dispose();
    previews.dispose();
    history.dispose();
    w.dispose();
  });

  /** Runs the preview lens titled `title` as VS Code runs a CodeLens: its command with its arguments. */
  async function runLens(uri: Uri, title: string): Promise<FakeWebviewPanel> {
    const lens = new PreviewCodeLensProvider(previews).provideCodeLenses({ uri } as never).find((l) => l.command?.title.endsWith(title));
    assert.ok(lens?.command, `the preview has a "${title}" lens`);
    const panelsBefore = fake.state.webviewPanels.length;
    await commands.executeCommand(lens.command.command, ...(lens.command.arguments ?? []));
    assert.equal(fake.state.webviewPanels.length, panelsBefore + 1, `"${title}" opened a graph`);
    return fake.state.webviewPanels.at(-1)!;
  }

  it('Show Graph: the preview’s graph has the estimate in its header; Compare with Committed: the paid cost beside the estimate', async () => {
    openCommandsFile(source, p, `cost-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    assert.ok(resultUri, 'previewed');
    // What the participant estimated, as the preview decoded it.
    const estimate = previews.previewIn(resultUri)!.costEstimate;
    assert.ok(estimate && estimate.total > 0 && estimate.total === estimate.request + estimate.response, JSON.stringify(estimate));
    const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;

    const preview = await drawn(await runLens(resultUri, 'Show Graph'));
    assert.equal(preview.kind, 'transaction');
    assert.equal(preview.kind === 'transaction' && preview.trafficCost, `estimated ${bytes(estimate.total)} (confirmation request ${bytes(estimate.request)} + response ${bytes(estimate.response)})`);

    const submitted = await previews.submitPreviewed(resultUri);
    assert.equal(submitted.record?.outcome, 'succeeded');
    // What the participant says the committed transaction cost, read apart from the graph.
    const committed = await w.connection.client.updateByKey({ updateId: submitted.record!.updateId! }, { filter: { anyParty: true, shape: 'ledger-effects' } });
    const paid = committed.kind === 'transaction' ? committed.paidTrafficCost : undefined;
    assert.ok(paid !== undefined && paid > 0, 'the demo participant reports what its own submission paid');

    const comparison = await drawn(await runLens(resultUri, 'Compare with Committed'));
    assert.equal(comparison.kind, 'comparison');
    if (comparison.kind !== 'comparison') return;
    assert.equal(comparison.trafficCost, `paid ${bytes(paid)} (estimated ${bytes(estimate.total)})`);
    assert.match(comparison.text, new RegExp(`^Traffic cost: paid ${bytes(paid)} \\(estimated ${bytes(estimate.total)}\\)$`, 'm'));
    // Both sides keep their own: the preview its estimate, the committed transaction what it paid.
    assert.equal(comparison.prepared.trafficCost, preview.kind === 'transaction' ? preview.trafficCost : undefined);
    assert.equal(comparison.committed.trafficCost, `paid ${bytes(paid)}`);
  });

  it('a participant that gives no estimate: Show Graph draws the preview with no cost, and the comparison says the paid cost alone', async () => {
    // The prepare answer without `costEstimation` (as before 3.4, or with estimation disabled).
    const prepare = w.connection.client.prepare.bind(w.connection.client);
    w.connection.client.prepare = async (...args: Parameters<typeof prepare>) => {
      const answer = await prepare(...args);
      return { ...answer, raw: { ...answer.raw, costEstimation: undefined } };
    };
    openCommandsFile(source, p, `cost-${randomUUID()}`);
    const { resultUri } = await previews.previewFile(source);
    assert.equal(previews.previewIn(resultUri!)!.costEstimate, undefined);
    const preview = await drawn(await runLens(resultUri!, 'Show Graph'));
    assert.equal(preview.kind === 'transaction' && preview.trafficCost, undefined);
    assert.equal((await previews.submitPreviewed(resultUri)).record?.outcome, 'succeeded');
    const comparison = await drawn(await runLens(resultUri!, 'Compare with Committed'));
    assert.match(comparison.kind === 'comparison' ? (comparison.trafficCost ?? '') : '', /^paid [\d,]+ bytes$/);
  });
});
