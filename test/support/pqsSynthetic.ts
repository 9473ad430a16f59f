/**
 * A store of many active contracts, made in the database itself (generate_series: one INSERT … SELECT,
 * no row crosses the wire), for the PQS benchmark and its check: `count` Ious of `owners` owners,
 * created one per offset, all active at the latest offset.
 */
import type { Client } from 'pg';
import { pqsDemoSchemaSql, quoteIdent } from '../../src/participant/pqs/schema';

export const SYNTHETIC_TEMPLATE = 'bench-iou:Iou:Iou';

export async function loadSyntheticStore(c: Client, schema: string, count: number, owners = 1000): Promise<void> {
  const s = quoteIdent(schema);
  await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
  await c.query(pqsDemoSchemaSql(schema));
  await c.query(`INSERT INTO ${s}._templates VALUES ($1, 'Iou:Iou', 'Iou', 'template')`, [SYNTHETIC_TEMPLATE]);
  await c.query(
    `INSERT INTO ${s}._contracts (create_event_pk, template_fqn, contract_id, created_at_ix, created_at_offset, created_effective_at, payload, package_name, package_version, package_id, signatories, observers)
     SELECT g, $1, '00' || md5(g::text), g, g, timestamptz '2026-01-01' + g * interval '1 second',
            jsonb_build_object('issuer', 'Bank::1220', 'owner', 'party-' || (g % $3) || '::1220', 'currency', 'USD', 'amount', (g % 10000)::text || '.0000000000', 'observers', '[]'::jsonb),
            'bench-iou', '1.0.0', repeat('a', 64), ARRAY['Bank::1220'], ARRAY[]::text[]
       FROM generate_series(1, $2::bigint) AS g`,
    [SYNTHETIC_TEMPLATE, count, owners],
  );
  await c.query(`INSERT INTO ${s}._updates SELECT g, g, '1220' || md5(g::text), 'bench-' || g, '', timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second' FROM generate_series(1, $1::bigint) AS g`, [count]);
  await c.query(`UPDATE ${s}._watermark SET latest = $1, oldest = 1, pruned = 0`, [count]);
  await c.query(`ANALYZE ${s}._contracts`);
}
