const D = require('better-sqlite3');
const d = new D('/tmp/exp/portal.sqlite');
d.pragma('cache_size = -65536');
const t = (label, q, ...p) => { const st = d.prepare(q); st.all(...p); const s = performance.now(); let r; for (let i=0;i<5;i++) r = st.all(...p); console.log(label.padEnd(40), ((performance.now()-s)/5).toFixed(2)+'ms', JSON.stringify(r).slice(0,60)); };
for (const tb of ['tickets_fts','fts_none','fts_none_p']) {
  const body = tb === 'tickets_fts' ? (x) => `{body} : (${x})` : (x) => x;
  const attr = tb === 'tickets_fts' ? (x) => `{attrs} : (${x})` : (x) => x.replace(/\b([a-z])(\w+)/g, '_$1$2');
  const cases = [
    ['ruta* page', body('ruta*'), 'page'],
    ['ruta* count', body('ruta*'), 'count'],
    ['ruta exact page', body('ruta'), 'page'],
    ['ruta exact count', body('ruta'), 'count'],
    ['ru* count', body('ru*'), 'count'],
    ['2 exact count', body('refrigeracion AND monterrey'), 'count'],
    ['2 prefix count', body('refrigeracion* AND monterrey*'), 'count'],
    ['2 prefix page', body('refrigeracion* AND monterrey*'), 'page'],
    ['mine ruta count', body('ruta') + ' AND ' + attr('c3 OR a3'), 'count'],
    ['mine ruta page', body('ruta') + ' AND ' + attr('c3 OR a3'), 'page'],
    ['mine ruta* count', body('ruta*') + ' AND ' + attr('c3 OR a3'), 'count'],
  ];
  console.log('==', tb);
  for (const [l, m, k] of cases) {
    if (k === 'page') t(l, `select rowid from ${tb} where ${tb} match ? order by rowid desc limit 10`, m);
    else t(l, `select count(*) from (select rowid from ${tb} where ${tb} match ? limit 10001)`, m);
  }
}
console.log(d.prepare("select term, doc from fts_none_v where term >= 'ruta' and term < 'rutb'").all());
const s=performance.now(); const r=d.prepare("select term from fts_none_v where term >= 'mon' and term < 'moo' order by doc desc limit 65").all(); console.log('vocab', performance.now()-s, r.length);
