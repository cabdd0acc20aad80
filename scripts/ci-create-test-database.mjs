// Creates the PostgreSQL database the API tests start from (they create and drop their own from it).
// Fails loudly when PostgreSQL is unreachable: the API suite must run on both dialects.
import pg from 'pg';

const target = new URL(process.argv[2]);
const name = target.pathname.replace(/^\//, '');
if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Invalid database name: ${name}`);
const admin = new URL(target);
admin.pathname = '/postgres';

const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 10_000 });
try {
  await client.connect();
} catch (error) {
  console.error(`\nPostgreSQL is unreachable at ${admin.host}: ${error.message}`);
  console.error('The API tests run on SQLite and PostgreSQL; start PostgreSQL and run again.\n');
  process.exit(1);
}
const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
if (rowCount === 0) await client.query(`create database ${name}`);
console.log(`PostgreSQL ${(await client.query('show server_version')).rows[0].server_version}: database ${name} ready`);
await client.end();
