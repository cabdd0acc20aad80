import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { CLUSTER_METRICS, type ClusterMetricsMessage } from './plugins/metrics.ts';

/**
 * The primary of `WORKERS=N`: forks N processes of `serverFile`, which share the listening port
 * (the primary hands each connection to one of them), replaces one that dies while serving, and
 * on SIGTERM or SIGINT passes the signal on and exits once every process has finished its requests.
 * A process that dies before it listens is a start-up failure (configuration, port in use): the
 * primary stops them all and exits with an error rather than restart it in a loop.
 * A process asked for the metrics gets every process's, added up, from the primary.
 */
export function runPrimary(workers: number, serverFile: string): void {
  cluster.setupPrimary({ exec: serverFile });
  const listening = new Set<Worker>();
  let alive = 0;
  let isStopping = false;
  const fork = () => {
    alive += 1;
    cluster.fork();
  };

  const stop = (signal: NodeJS.Signals) => {
    if (isStopping) return;
    isStopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  const metrics = new AggregatorRegistry();
  cluster.on('message', (worker, message: ClusterMetricsMessage) => {
    if (message?.type !== CLUSTER_METRICS) return;
    metrics.clusterMetrics().then(
      (text) => worker.send({ type: CLUSTER_METRICS, id: message.id, text }),
      (error: Error) => worker.send({ type: CLUSTER_METRICS, id: message.id, error: error.message }),
    );
  });

  cluster.on('listening', (worker) => listening.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    alive -= 1;
    const hadStarted = listening.delete(worker);
    if (!isStopping && hadStarted) {
      console.error(`Portal process ${worker.process.pid} ended (${signal ?? code}): starting another`);
      fork();
      return;
    }
    if (!isStopping) {
      console.error(`Portal process ${worker.process.pid} failed to start (${signal ?? code}): stopping`);
      stop('SIGTERM');
      process.exitCode = 1;
    }
    if (alive === 0) process.exit();
  });

  for (let i = 0; i < workers; i += 1) fork();
}
