import { TICKET_IMPORT_MSG } from '@portal/contract';
import { createReadStream, statSync } from 'node:fs';
import type { Database } from '../../db/database.ts';
import { createTicketImporter, type TicketImportProgress } from './ticket-import.ts';

const number = (n: number) => n.toLocaleString('es-MX');

/**
 * `npm run tickets:import -- FILE.csv`: imports a CSV file into the configured database,
 * printing its progress line by line (reading, loading by batches, rebuilding after a load larger
 * than the table), then the rejected lines or the count. Answers whether the tickets were imported.
 */
export async function importTicketsFile(
  database: Database,
  sqliteFile: string | undefined,
  file: string,
  print: (line: string) => void = (line) => console.log(line),
): Promise<boolean> {
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const importer = createTicketImporter(database, sqliteFile);
  const size = statSync(file).size;
  let read = 0;
  let lastShown = 0;
  const source = (async function* () {
    for await (const chunk of createReadStream(file)) {
      read += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  })();
  const progress = (p: TicketImportProgress) => {
    const now = performance.now();
    if (p.phase === 'rebuilding')
      return print(`Reconstruyendo el índice de búsqueda, los contadores y los reportes… (${seconds()})`);
    if (now - lastShown < 1000 && !(p.phase === 'loading' && p.done === p.total)) return;
    lastShown = now;
    print(
      p.phase === 'reading'
        ? `Leyendo: ${number(p.lines)} líneas, ${Math.floor((read / size) * 100)} % (${seconds()})`
        : `Guardando: ${number(p.done)} de ${number(p.total)} tickets (${seconds()})`,
    );
  };
  const checked = await importer.check(source, progress);
  if (checked.errorCount > 0) {
    for (const { line, message } of checked.errors) print(`Línea ${line}: ${message}`);
    if (checked.errorCount > checked.errors.length) {
      print(`… y ${number(checked.errorCount - checked.errors.length)} más.`);
    }
    print(TICKET_IMPORT_MSG.rejected(checked.rejectedLines));
    return false;
  }
  print(`Leídos ${number(checked.rows.length)} tickets (${seconds()}).`);
  await importer.load(checked.rows, progress);
  print(`${TICKET_IMPORT_MSG.imported(checked.rows.length)} (${seconds()})`);
  return true;
}
