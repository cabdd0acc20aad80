import { createDatabase } from '../../apps/api/src/db/database.ts';
import { createTicketsRepository } from '../../apps/api/src/modules/tickets/tickets.repository.ts';
const url = process.argv[2];
const database = createDatabase({ databaseUrl: url || undefined, sqliteFile: '/tmp/exp/portal.sqlite' });
const repo = createTicketsRepository(database);
const cases: [string, any, number][] = [
  ['general p1', { scope: { kind: 'all' }, search: '' }, 1],
  ['general p2000', { scope: { kind: 'all' }, search: '' }, 2000],
  ['mine', { scope: { kind: 'mine', userId: 3 }, search: '' }, 1],
  ['current', { scope: { kind: 'all' }, search: '', history: 'current' }, 1],
  ['old', { scope: { kind: 'all' }, search: '', history: 'old' }, 1],
  ['ruta', { scope: { kind: 'all' }, search: 'ruta' }, 1],
  ['54321', { scope: { kind: 'all' }, search: '54321' }, 1],
  ['zafiro', { scope: { kind: 'all' }, search: 'zafiro' }, 1],
  ['2 words', { scope: { kind: 'all' }, search: 'refrigeracion monterrey' }, 1],
  ['mine ruta', { scope: { kind: 'mine', userId: 3 }, search: 'ruta' }, 1],
  ['current ruta', { scope: { kind: 'all' }, search: 'ruta', history: 'current' }, 1],
  ['aduana', { scope: { kind: 'all' }, search: 'aduana' }, 1],
];
for (const [label, filter, page] of cases) {
  await repo.list(filter, { page, per_page: 10 });
  const samples: number[] = [];
  let r: any;
  for (let i = 0; i < 15; i++) { const s = performance.now(); r = await repo.list(filter, { page, per_page: 10 }); samples.push(performance.now() - s); }
  samples.sort((a, b) => a - b);
  console.log(label.padEnd(16), 'p50', samples[7]!.toFixed(2), 'max', samples[14]!.toFixed(2), JSON.stringify(r.meta));
}
await database.destroy();
