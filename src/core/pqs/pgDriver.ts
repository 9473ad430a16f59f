/**
 * The PostgreSQL driver (node-postgres) as a bundle of its own (dist/pqs.js): the extension loads it
 * on the first PQS connection, so activation and the other features do not parse it.
 */
export { Pool } from 'pg';
