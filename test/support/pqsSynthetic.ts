/**
 * A store of many active contracts, made in the database itself (generate_series: one INSERT … SELECT,
 * no row crosses the wire), for the PQS benchmark and the plan checks: `count` active Ious of `owners`
 * owners at the latest offset, each with its Holding interface view as PQS stores it (a second payload
 * row), among half as many again created one per offset and archived a few offsets later (every third
 * contract). PQS's writer inserts batches from parallel sessions and archives by updating rows, so a
 * template's rows do not lie in keyset order on disk: they are written here in a scrambled order. `real`: in PQS's own schema (partitioned `__contracts`, the GiST
 * `life_ix` index), the types registered through PQS's own procedures; `demo`: in the demo mirror's schema.
 */
import type { Client } from 'pg';
import { pqsDemoSchemaSql, quoteIdent } from '../../src/participant/pqs/schema';
import { loadPqsSchema } from './pqsReal';
import type { StoreKind } from './pqsFixture';

export const SYNTHETIC_TEMPLATE = 'bench-iou:Iou:Iou';
export const SYNTHETIC_INTERFACE = 'bench-holding:Holding:Holding';

const PAYLOAD = `jsonb_build_object('issuer', 'Bank::1220', 'owner', 'party-' || (g % $2) || '::1220', 'currency', 'USD', 'amount', (g % 10000)::text || '.0000000000', 'observers', '[]'::jsonb)`;
const VIEW = `jsonb_build_object('owner', 'party-' || (g % $2) || '::1220', 'amount', (g % 10000)::text || '.0000000000')`;

export async function loadSyntheticStore(c: Client, schema: string, active: number, owners = 1000, kind: StoreKind = 'real'): Promise<void> {
  const s = quoteIdent(schema);
  // Every third contract is archived: 1.5 × `active` created leaves `active` active.
  const count = Math.ceil((active * 3) / 2);
  const archivedAt = (g: string) => `least(${g} + 7, ${count})`;
  if (kind === 'demo') {
    await c.query(`CREATE SCHEMA ${s}; ${pqsDemoSchemaSql(schema)}`);
    await c.query(
      `INSERT INTO ${s}._entities (fqn, payload_type, aliases) VALUES ($1, 'template', ARRAY[$1, 'Iou:Iou', 'Iou']), ($2, 'interface', ARRAY[$2, 'Holding:Holding', 'Holding'])`,
      [SYNTHETIC_TEMPLATE, SYNTHETIC_INTERFACE],
    );
    await c.query(`INSERT INTO ${s}._transactions SELECT g, g, '1220' || md5(g::text), 'bench-' || g, '', NULL, timestamptz '2026-01-01' + g * interval '1 second' FROM generate_series(1, $1::bigint) AS g`, [count]);
    for (const [fqn, payload] of [
      [SYNTHETIC_TEMPLATE, PAYLOAD],
      [SYNTHETIC_INTERFACE, VIEW],
    ]) {
      await c.query(
        `INSERT INTO ${s}._contracts (entity_pk, contract_id, create_event_pk, create_node_id, created_at_ix, created_at_offset, created_effective_at, payload, package_name, package_version, package_id, signatories)
         SELECT (SELECT pk FROM ${s}._entities WHERE fqn = $3), '00' || md5(g::text), g, 0, g, g, timestamptz '2026-01-01' + g * interval '1 second', ${payload},
                split_part($3, ':', 1), '1.0.0', repeat('a', 64), ARRAY['Bank::1220'] FROM generate_series(1, $1::bigint) AS g`,
        [count, owners, fqn],
      );
    }
    await c.query(
      `UPDATE ${s}._contracts SET archive_event_pk = ${archivedAt('create_event_pk')} * 65536 + 1, archive_node_id = 1, archived_at_ix = ${archivedAt('create_event_pk')}, archived_at_offset = ${archivedAt('create_event_pk')} WHERE create_event_pk % 3 = 0`,
    );
    await c.query(`UPDATE ${s}._watermark SET latest = $1, oldest = 1, pruned = 0`, [count]);
    await c.query(`ANALYZE ${s}._contracts`);
    return;
  }
  await loadPqsSchema(c, schema);
  await c.query(`CALL __initialize_package('bench-iou', '1.0.0', repeat('a', 64))`);
  await c.query(`CALL __initialize_package('bench-holding', '1.0.0', repeat('b', 64))`);
  await c.query(`CALL __initialize_contract_tpe('bench-iou', 'Iou', 'Iou', 'template')`);
  await c.query(`CALL __initialize_contract_tpe('bench-holding', 'Holding', 'Holding', 'interface')`);
  await c.query(`CALL __initialize_contract_implements($1, $2)`, [SYNTHETIC_TEMPLATE, SYNTHETIC_INTERFACE]);
  await c.query(`INSERT INTO __transactions (ix, "offset", transaction_id, effective_at, workflow_id) SELECT g, g, '1220' || md5(g::text), timestamptz '2026-01-01' + g * interval '1 second', '' FROM generate_series(1, $1::bigint) AS g`, [count]);
  await c.query(`INSERT INTO __events (pk, tx_ix, event_id, type) SELECT g, g, ROW(g, 0)::event_id, 'create' FROM generate_series(1, $1::bigint) AS g`, [count]);
  for (const [fqn, payload] of [
    [SYNTHETIC_TEMPLATE, PAYLOAD],
    [SYNTHETIC_INTERFACE, VIEW],
  ]) {
    await c.query(
      `INSERT INTO __contracts (tpe_pk, create_event_pk, created_at_ix, contract_id, payload, package_pk, signatories)
       SELECT (SELECT pk FROM __contract_tpe WHERE template_fqn = $3), g, g, '00' || md5(g::text), ${payload}, (SELECT pk FROM __packages WHERE name = split_part($3, ':', 1)), ARRAY['Bank::1220']
         FROM generate_series(1, $1::bigint) AS g ORDER BY md5(g::text)`,
      [count, owners, fqn],
    );
  }
  // The archives' events, then the rows archived as PQS's writer does it (an update of every payload row).
  await c.query(`INSERT INTO __events (pk, tx_ix, event_id, type) SELECT $1 + g, ${archivedAt('g')}, ROW(${archivedAt('g')}, 1)::event_id, 'exercise' FROM generate_series(3, $1::bigint, 3) AS g`, [count]);
  await c.query(`UPDATE __contracts SET archive_event_pk = $1 + create_event_pk, archived_at_ix = ${archivedAt('create_event_pk')} WHERE create_event_pk % 3 = 0`, [count]);
  await c.query(`INSERT INTO __watermark (ix, "offset", instance_id) VALUES ($1, $1, 'synthetic')`, [count]);
  // As on a store that has been running a while: statistics, hint bits and the visibility map made.
  await c.query(`VACUUM ANALYZE`);
}
