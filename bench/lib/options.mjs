// Shared by the benchmarks: which node runs the measured processes, medians, and the table.
//   --node PATH or KACTL_BENCH_NODE=PATH   (default: the node running the benchmark)
//   --runs N                               (interleaved rounds; medians are printed)
//   --quick                                (fewer or shorter rounds)
// bench/all.mjs also takes --lines 20,24,… (bench/lib/nodes.mjs) and passes each line's node on.
import { nodeVersion, sqliteLoads } from './nodes.mjs';

/**
 * The options. `sqlite: true` (the default) for a benchmark whose sandbox runs on the measured
 * node: better-sqlite3 must then be built for it, else one sentence says how to get such a tree.
 */
export function benchOptions(argv = process.argv.slice(2), { sqlite = true } = {}) {
  const options = { node: process.env.KACTL_BENCH_NODE || process.execPath, runs: undefined, quick: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--node') options.node = argv[++i];
    else if (arg.startsWith('--node=')) options.node = arg.slice('--node='.length);
    else if (arg === '--runs') options.runs = Number(argv[++i]);
    else if (arg.startsWith('--runs=')) options.runs = Number(arg.slice('--runs='.length));
    else if (arg === '--quick') options.quick = true;
    else throw new Error(`unknown option ${arg} (use --node PATH, --runs N, --quick)`);
  }
  options.nodeVersion = nodeVersion(options.node);
  if (sqlite && !sqliteLoads(options.node)) {
    const line = options.nodeVersion.slice(1).split('.')[0];
    throw new Error(
      `better-sqlite3 in this node_modules is not built for ${options.nodeVersion}. Make a copy of the checkout built for it, ` +
        `e.g. \`bash .ci/node-line.sh ${line} /tmp/kactl-node${line}\` (prints that Node's bin folder), and run the benchmark there with that folder first on PATH.`,
    );
  }
  return options;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * One line per figure: value, baseline, ratio, target, and MISS when the target is missed. A row
 * without a target is there for the reader and is never a miss.
 */
export function printRows(rows, { unit, digits = 1 }) {
  let misses = 0;
  const width = Math.max(...rows.map((row) => row.label.length));
  for (const row of rows) {
    let verdict = '(no target)';
    if (row.target !== undefined) {
      const ok = row.higherIsBetter ? row.ratio >= row.target : row.ratio <= row.target;
      if (!ok) misses += 1;
      verdict = `target ${row.higherIsBetter ? '≥' : '≤'}×${row.target}  ${ok ? 'ok' : 'MISS'}`;
    }
    console.log(
      `${row.label.padEnd(width)}  ${row.value.toFixed(digits).padStart(8)} ${unit}  baseline ${row.baseline.toFixed(digits).padStart(8)} ${unit} (${row.baselineLabel})  ×${row.ratio.toFixed(2)}  ${verdict}`,
    );
  }
  return misses;
}
