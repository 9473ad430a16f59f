/**
 * The demo participant's Holding interface as a comparison through it shows it: every created event a
 * party sees is an Iou with the view the participant computes from its argument, and no party sees
 * another view than the others.
 */
import assert from 'node:assert/strict';
import type { CreatedEvent } from '../../src/core/models/updates';
import type { PartyComparison } from '../../src/core/updates/compare';

export const HOLDING_INTERFACE = '#demo-holding:Holding:Holding';

/** The Iou's view as Holding: what the catalog's instance computes. */
export function holdingViewOf(iou: CreatedEvent): unknown {
  const argument = iou.createArgument as Record<string, unknown>;
  return { owner: argument.owner, issuer: argument.issuer, instrument: argument.currency, amount: argument.amount };
}

export function assertComparedThroughHolding(c: PartyComparison): void {
  const creates = c.updates.flatMap((u) => u.events).filter((e) => e.kind === 'created');
  assert.ok(creates.length > 0, 'creates of contracts implementing Holding');
  for (const e of creates) {
    for (const view of e.views) {
      if (!view) continue;
      const event = view.event as CreatedEvent;
      assert.match(event.templateId, /:Iou:Iou$/, 'only contracts implementing Holding (no Asset)');
      assert.deepEqual(event.interfaceViews.map((v) => [v.viewStatus.code, v.viewValue]), [[0, holdingViewOf(event)]]);
    }
    assert.ok(!e.differences.some((d) => d.field === 'interfaceViews'), 'the same view for every party that sees the contract');
  }
}
