/**
 * An empty PostgreSQL database, as a user who "has PostgreSQL" has one, in a process of its own for the
 * UI check of Set Up PQS for the Demo… (`node --import tsx test/support/postgresProcess.ts`): a fresh
 * database of a throw-away cluster, owned by a login role with a random password (it may create the
 * demo's schema there). Prints one JSON line (the URL without the password, the password, the cluster
 * and the database), runs until SIGTERM or its stdin closes, then stops the cluster.
 */
import { randomBytes } from 'node:crypto';
import { runFixtureProcess } from './fixtureProcess';
import { asAdmin, freshDatabase } from './postgres';

const OWNER = 'demo_mirror_owner';

runFixtureProcess(async () => {
  const { cluster, database } = await freshDatabase('ui_demo_mirror');
  const password = `mirror-${randomBytes(12).toString('hex')}`;
  await asAdmin(cluster, 'postgres', async (c) => {
    await c.query(`CREATE ROLE ${OWNER} LOGIN PASSWORD '${password}'`);
    await c.query(`ALTER DATABASE "${database}" OWNER TO ${OWNER}`);
  });
  return { printed: { url: `postgresql://${OWNER}@${cluster.host}:${cluster.port}/${database}?schema=pqs&sslmode=disable`, password, cluster, database }, close: async () => undefined };
});
