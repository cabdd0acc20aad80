import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { DEMO_ADMIN_PASSWORD, DEMO_PASSWORD } from './db/seed-data.ts';

const { config, database, seeded } = await bootstrap();
const { app, services, startDraining } = await buildApp({ config, database });

await app.listen({ port: config.port, host: config.host });
const address = `http://${config.host}:${config.port}`;
app.log.info({ database: database.dialect, seeded }, `Portal de tickets listening at ${address}`);
console.log(`\nPortal de tickets: ${address}`);
if (config.seedDemo) {
  console.log(
    `Demo accounts: admin / ${config.adminPassword ? '(ADMIN_PASSWORD)' : DEMO_ADMIN_PASSWORD}, supervisor / ${DEMO_PASSWORD}, agente / ${DEMO_PASSWORD}\n`,
  );
}

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
