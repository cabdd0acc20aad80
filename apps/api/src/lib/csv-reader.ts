/** One CSV record and the line of the file it starts on (the first line is 1). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * Reads RFC 4180 CSV as it arrives, chunk by chunk (a file of any size is never held whole):
 * fields separated by commas, quoted fields may hold commas, doubled quotes and line breaks,
 * records end at CRLF or LF. A leading byte order mark is skipped; blank lines are skipped.
 * Each record carries the line it starts on, so a message can name it.
 */
export async function* readCsv(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<CsvRecord[]> {
  const decoder = new TextDecoder('utf-8');
  let cells: string[] = [];
  let field = '';
  let isQuoted = false;
  /** Inside quotes, the last character read was a quote: the end of the quotes, or the first of a doubled one. */
  let isQuoteOpen = false;
  let fieldStarted = false;
  let line = 1;
  let recordLine = 1;
  let isFirst = true;
  let records: CsvRecord[] = [];

  const endRecord = () => {
    cells.push(field);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: recordLine, cells });
    cells = [];
    field = '';
    fieldStarted = false;
  };

  const feed = (text: string) => {
    let i = 0;
    if (isFirst) {
      isFirst = false;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    const n = text.length;
    while (i < n) {
      if (isQuoted) {
        if (isQuoteOpen) {
          isQuoteOpen = false;
          if (text.charCodeAt(i) === 34) {
            field += '"';
            i++;
            continue;
          }
          isQuoted = false; // the closing quote: what follows is read unquoted
          continue;
        }
        const quote = text.indexOf('"', i);
        const end = quote === -1 ? n : quote;
        const part = text.slice(i, end);
        for (let k = part.indexOf('\n'); k !== -1; k = part.indexOf('\n', k + 1)) line++;
        field += part;
        i = end;
        if (quote !== -1) {
          isQuoteOpen = true;
          i++;
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 44 /* , */) {
        cells.push(field);
        field = '';
        fieldStarted = true;
        i++;
      } else if (c === 10 /* \n */) {
        endRecord();
        line++;
        recordLine = line;
        i++;
      } else if (c === 13 /* \r */) {
        i++; // CRLF: the LF ends the record
      } else if (c === 34 /* " */ && field === '') {
        isQuoted = true;
        fieldStarted = true;
        i++;
      } else {
        // The plain run up to the next separator, quote or line end.
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 44 || d === 10 || d === 13 || d === 34) break;
          j++;
        }
        field += text.slice(i, j);
        fieldStarted = true;
        i = j;
        if (j < n && text.charCodeAt(j) === 34) {
          field += '"'; // a quote inside an unquoted field is kept as it is
          i++;
        }
      }
    }
  };

  for await (const chunk of chunks) {
    feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    if (records.length > 0) {
      yield records;
      records = [];
    }
  }
  feed(decoder.decode());
  if (fieldStarted || field !== '' || cells.length > 0) endRecord();
  if (records.length > 0) yield records;
}
