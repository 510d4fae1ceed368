// Run by scripts/bundle.mjs in a child process with a piped stdout and an empty environment:
// writes `kactl [command…] --help` as commander prints it, for the program and every command,
// into the folder given (one file per command: `kactl licenses list.txt`). bin/kactl.js prints
// these without loading the bundle when the output is not a terminal.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { buildProgram } from '../dist/program.js';
import { Context } from '../dist/context.js';

const { main } = createRequire(import.meta.url)('../dist/bundle/cli.cjs');
const outdir = process.argv[2];
fs.mkdirSync(outdir, { recursive: true });

const quiet = () => new PassThrough();
const ctx = new Context({ stdin: quiet(), stdout: quiet(), stderr: quiet(), env: {}, signal: new AbortController().signal, now: Date.now });
const paths = [];
(function walk(command, names) {
  paths.push(names);
  for (const sub of command.commands) walk(sub, [...names, sub.name()]);
})(await buildProgram(ctx, []), []);

for (const names of paths) {
  const stdout = new PassThrough();
  const chunks = [];
  stdout.on('data', (chunk) => chunks.push(chunk));
  const code = await main([...names, '--help'], { stdin: quiet(), stdout, stderr: quiet(), env: {} });
  if (code !== 0) throw new Error(`kactl ${names.join(' ')} --help exited ${code}`);
  fs.writeFileSync(path.join(outdir, `${['kactl', ...names].join(' ')}.txt`), Buffer.concat(chunks));
}
