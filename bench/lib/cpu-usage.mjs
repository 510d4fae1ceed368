// Preloaded (`node --import`) into a measured process: at exit, writes the CPU time the whole
// process used (user + system, every thread, in microseconds) as JSON to the file named by
// KACTL_BENCH_CPU_FILE. CPU time hardly moves with the machine's load, unlike wall-clock time.
import fs from 'node:fs';

const file = process.env.KACTL_BENCH_CPU_FILE;
if (file) {
  process.once('exit', () => {
    const { user, system } = process.cpuUsage();
    fs.writeFileSync(file, JSON.stringify({ user, system }));
  });
}
