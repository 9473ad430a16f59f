// The Getting Started walkthrough against what the extension registers and ships: every step's command
// links name commands that activation registers (or a view's own focus command), every media file is
// there (and under media/, which the .vsix ships), and the steps reach the features a newcomer looks for.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fake } from './fake/vscode';
import { activateAllFeaturesForSuite, manifest } from './featureHost';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: string | Record<string, string>; svg?: string };
}
const root = join(__dirname, '../..');
const walkthroughs = (manifest.contributes.walkthroughs ?? []) as Array<{ id: string; steps: Step[] }>;
const steps = walkthroughs.flatMap((w) => w.steps);
const viewIds = new Set<string>((Object.values(manifest.contributes.views) as Array<Array<{ id: string }>>).flat().map((v) => v.id));
const mediaOf = (s: Step): string[] => [s.media.markdown, s.media.svg, ...(typeof s.media.image === 'string' ? [s.media.image] : Object.values(s.media.image ?? {}))].filter((p): p is string => p !== undefined);
/** `command:<id>` links, without their arguments. */
const linked = (text: string) => [...text.matchAll(/command:([\w.-]+)/g)].map((m) => m[1]);

describe('the Getting Started walkthrough', () => {
  activateAllFeaturesForSuite();

  it('has a step for connecting, commands files, the updates, the graph, ledger scripts, failed commands and PQS', () => {
    assert.deepEqual(steps.map((s) => s.id), ['connect', 'token', 'commands', 'updates', 'graph', 'scripts', 'failures', 'pqs']);
  });

  it('every command a step or its media links to is registered by activation (or is a view\'s focus)', () => {
    const registered = new Set(fake.state.commands.keys());
    const links = steps.flatMap((s) => [s.description, ...mediaOf(s).filter((m) => m.endsWith('.md')).map((m) => readFileSync(join(root, m), 'utf8'))].flatMap((text) => linked(text).map((id) => ({ step: s.id, id }))));
    assert.ok(links.length >= 8, `the links were read (${links.length})`);
    const isViewFocus = (id: string) => id.endsWith('.focus') && viewIds.has(id.slice(0, -'.focus'.length));
    assert.deepEqual(links.filter((l) => !registered.has(l.id) && !isViewFocus(l.id)), []);
  });

  it('every step of the features added since the first four links to a command of its own', () => {
    for (const s of steps.filter((x) => ['graph', 'scripts', 'failures', 'pqs'].includes(x.id))) assert.ok(linked(s.description).length > 0, `${s.id} has no command link`);
  });

  it('every media file exists, under media/ (shipped in the .vsix)', () => {
    const media = steps.flatMap((s) => mediaOf(s).map((m) => ({ step: s.id, m })));
    assert.equal(media.length, steps.length, 'each step has its media');
    assert.deepEqual(media.filter(({ m }) => !m.startsWith('media/') || !existsSync(join(root, m))), []);
  });
});
