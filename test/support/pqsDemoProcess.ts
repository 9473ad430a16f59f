/**
 * A demo participant mirrored into a throw-away PostgreSQL, in a process of its own, for the UI check
 * (`node --import tsx test/support/pqsDemoProcess.ts`): prints one JSON line (the participant's URL,
 * the reader's PQS URL and password), runs until SIGTERM or its stdin closes, then stops both.
 */
import { runFixtureProcess } from './fixtureProcess';
import { mirroredDemo, PQS_SCHEMA, READER, READER_PASSWORD } from './pqsFixture';

runFixtureProcess(async () => {
  const demo = await mirroredDemo('ui');
  const s = demo.settings;
  return {
    printed: { participantUrl: demo.participant.url, pqsUrl: `postgresql://${READER}@${s.host}:${s.port}/${s.database}?schema=${PQS_SCHEMA}&sslmode=disable`, password: READER_PASSWORD, cluster: demo.cluster, database: demo.database },
    close: () => demo.close(),
  };
});
