/**
 * PQS at scale: a store of PQS's own schema (`../shared/pqs/`) with many active contracts (made in
 * PostgreSQL with generate_series), read through the extension's store: the first keyset page and page
 * 1,000 of a template's contracts, and payload-filtered pages (a party, a numeric range) without and with
 * the payload index the PQS view suggests for them (created as PQS documents it).
 */
import * as pg from 'pg';
import { parsePayloadFilter, suggestedPayloadIndex, type PayloadFilter } from '../../../src/core/pqs/filter';
import { PqsStore, type PgDriver } from '../../../src/core/pqs/store';
import { asAdmin, freshDatabase, stopSharedPostgres } from '../../support/postgres';
import { loadSyntheticStore, SYNTHETIC_TEMPLATE } from '../../support/pqsSynthetic';
import { median, workerMain } from '../lib';

export interface PqsInput {
  contracts: number;
  pageSize: number;
  reps: number;
}

export interface PqsOutput {
  loadMs: number;
  firstPageMs: number;
  page1000Ms: number;
  filteredNoIndexMs: number;
  filteredIndexMs: number;
  numericNoIndexMs: number;
  numericIndexMs: number;
  pageRows: number;
}

const SCHEMA = 'pqs';

workerMain<PqsInput, PqsOutput>(async (input) => {
  try {
    const { cluster, database } = await freshDatabase('bench');
    const t0 = performance.now();
    await asAdmin(cluster, database, (c) => loadSyntheticStore(c, SCHEMA, input.contracts));
    const loadMs = performance.now() - t0;
    const store = new PqsStore(
      { host: cluster.host, port: cluster.port, database, user: cluster.user, schema: SCHEMA, sslmode: 'disable', statementTimeoutMs: 120_000 },
      async () => cluster.password,
      () => pg as unknown as PgDriver,
    );
    try {
      const at = (await store.watermark()).latest!;
      await store.connect();
      const page = (after: number | undefined, filters: PayloadFilter[] = []) =>
        store.activePage(SYNTHETIC_TEMPLATE, at, after === undefined ? undefined : { phase: 'created', after }, input.pageSize + 1, filters, {});
      // The cursor of page 1,000, reached page by page as "Load more" would.
      const pages = store.activeContracts(SYNTHETIC_TEMPLATE, at, [], input.pageSize);
      await pages.loadAtLeast(input.pageSize * 999);
      const cursor1000 = pages.items[input.pageSize * 999 - 1].createEventPk!;
      const timed = async (once: () => Promise<unknown>) => {
        for (let i = 0; i < 3; i++) await once();
        const ms: number[] = [];
        for (let i = 0; i < input.reps; i++) {
          const t = performance.now();
          await once();
          ms.push(performance.now() - t);
        }
        return median(ms);
      };
      const first = await page(undefined);
      const filter = parsePayloadFilter('owner=party-7::1220');
      const numeric: PayloadFilter = { ...parsePayloadFilter('amount>=9990'), numeric: true };
      const firstPageMs = await timed(() => page(undefined));
      const page1000Ms = await timed(() => page(cursor1000));
      const filteredNoIndexMs = await timed(() => page(undefined, [filter]));
      const numericNoIndexMs = await timed(() => page(undefined, [numeric]));
      for (const f of [filter, numeric]) {
        const suggestion = suggestedPayloadIndex(SYNTHETIC_TEMPLATE, f);
        if (!('sql' in suggestion)) throw new Error(`no index suggested for ${f.path.join('.')}`);
        await asAdmin(cluster, database, (c) => c.query(`SET search_path = ${SCHEMA}; ${suggestion.sql} ANALYZE __contracts`));
      }
      const filteredIndexMs = await timed(() => page(undefined, [filter]));
      const numericIndexMs = await timed(() => page(undefined, [numeric]));
      return { loadMs, firstPageMs, page1000Ms, filteredNoIndexMs, filteredIndexMs, numericNoIndexMs, numericIndexMs, pageRows: first.length - 1 };
    } finally {
      await store.dispose();
    }
  } finally {
    await stopSharedPostgres();
  }
});
