// `node bench/sandbox-snapshot.mjs` (after `npm run build`): what kactl/sandbox's snapshot(),
// restore() and reset() cost (src/sandbox/snapshot.ts), on a fresh store and on one holding 2,000
// keys, against the way it does not use: loading the image into a new connection
// (`new Database(buffer)`) and copying the rows through JavaScript. Medians of 25 runs, in this
// process (better-sqlite3 is synchronous, so the figure is the time a test waits).
import Database from 'better-sqlite3';
import { openStore } from '../dist/server/store/store.js';
import { seedStore } from '../dist/server/store/seed.js';
import { restoreSnapshot, takeSnapshot } from '../dist/sandbox/snapshot.js';
import { median } from './lib/options.mjs';

const RUNS = 25;
const time = (fn) => {
  fn();
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
};

/** The rejected way: the image in a connection of its own, rows copied one by one. */
function copyThroughJs(store, image) {
  const source = new Database(image);
  const db = store.db;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
  store.tx(() => {
    db.exec('PRAGMA defer_foreign_keys = ON');
    for (const table of tables) db.exec(`DELETE FROM main."${table}"`);
    for (const table of tables) {
      const rows = source.prepare(`SELECT * FROM "${table}"`).raw().all();
      if (rows.length === 0) continue;
      const insert = db.prepare(`INSERT INTO main."${table}" VALUES (${rows[0].map(() => '?').join(', ')})`);
      for (const row of rows) insert.run(row);
    }
  });
  source.close();
}

console.log('kactl/sandbox snapshots, in-process (ms, median of 25)');
console.log('keys    snapshot  restore (ours)  new connection + JS copy  ratio');
for (const keys of [0, 2000]) {
  const store = openStore(':memory:');
  const app = seedStore(store, {}, Math.floor(Date.now() / 1000));
  const insert = store.db.prepare("INSERT INTO licenses (appId, key, level, expires, status, note, gendate, genby) VALUES (?, ?, '1', 86400, 'Not Used', 'bench', 0, 'bench')");
  store.tx(() => {
    for (let i = 0; i < keys; i += 1) insert.run(app.id, `BENCH-${i}`);
  });
  let image;
  const snapshot = time(() => (image = takeSnapshot(store)));
  const ours = time(() => restoreSnapshot(store, image));
  const theirs = time(() => copyThroughJs(store, image));
  console.log(`${String(keys).padEnd(8)}${snapshot.toFixed(2).padStart(8)}  ${ours.toFixed(2).padStart(14)}  ${theirs.toFixed(2).padStart(24)}  ×${(ours / theirs).toFixed(2)}`);
  store.close();
}
