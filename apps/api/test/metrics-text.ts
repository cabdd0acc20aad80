/** Prometheus' text format as `name{labels}` → value (labels as written, in the order the client writes them). */
export function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return samples;
}
