import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { runPrimary } from './cluster.ts';
import { ConfigError, type Config } from './config.ts';
import { DEMO_ADMIN_PASSWORD, DEMO_PASSWORD } from './db/seed-data.ts';

const { config, database, seeded } = await bootstrap().catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
});

const announce = (config: Config, processes: string) => {
  console.log(`\nPortal de tickets: http://${config.host}:${config.port} (${processes})`);
  if (config.seedDemo) {
    console.log(
      `Demo accounts: admin / ${config.adminPassword ? '(ADMIN_PASSWORD)' : DEMO_ADMIN_PASSWORD}, supervisor / ${DEMO_PASSWORD}, agente / ${DEMO_PASSWORD}\n`,
    );
  }
};

if (cluster.isPrimary && config.workers > 1) {
  // The database is migrated and seeded here, once, before the processes that serve it start.
  await database.destroy();
  runPrimary(config.workers, fileURLToPath(import.meta.url));
  announce(config, `${config.workers} processes, PostgreSQL`);
} else {
  await serve();
}

async function serve() {
  const { app, services, startDraining } = await buildApp({ config, database });

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.dialect, seeded },
    `Portal de tickets listening at http://${config.host}:${config.port}`,
  );
  if (cluster.isPrimary) announce(config, `one process, ${database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}`);

  const purge = setInterval(() => void services.revokedTokens.purgeExpired().catch(() => undefined), 60 * 60 * 1000);
  purge.unref();

  // Audit retention: a first prune shortly after start (never before listening), then every six hours.
  const pruneAudit = () =>
    void services.audit
      .prune(config.auditRetentionDays)
      .then((deleted) => deleted > 0 && app.log.info({ deleted }, 'audit log pruned'))
      .catch((err: unknown) => app.log.error({ err }, 'audit prune failed'));
  setTimeout(pruneAudit, 30_000).unref();
  setInterval(pruneAudit, 6 * 60 * 60 * 1000).unref();

  let isClosing = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, async () => {
      if (isClosing) return;
      isClosing = true;
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      try {
        startDraining();
        await app.close();
        await database.destroy();
        process.exit(0);
      } catch (error) {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      }
    });
  }
}
