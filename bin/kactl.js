#!/usr/bin/env node
// The only place that ends the process: main() returns the exit code.
// CommonJS on purpose (bin/package.json): Node starts a CommonJS entry ~15 ms sooner than an ES
// module one, which is most of what `kactl --version` costs beyond `node -e 0`. The bundle is
// CommonJS too (scripts/bundle.mjs says why), required below.
const fs = require('node:fs');
const path = require('node:path');

const BUNDLE = path.join(__dirname, '..', 'dist', 'bundle');

// Answers known when the bundle was built, given before it loads (cold start is a measured
// figure): the version, and a command's help (`… --help` or `help …`) when it goes to a pipe or
// file (commander wraps at 80 columns without colour there; on a terminal it wraps at the
// terminal's width, so the bundle answers). A name with no file (a typo, an alias) goes to the
// bundle, which says there is no such command. scripts/write-help.mjs writes one file per command;
// test/unit/cli/static-help.test.ts keeps them equal to what the sources print.
const args = process.argv.slice(2);
let early;
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  early = 'version.txt';
} else if (!process.stdout.isTTY && !process.env.FORCE_COLOR && !process.env.CLICOLOR_FORCE) {
  // `kactl licenses create --help` and `kactl help licenses create` print the same text.
  const words = args.at(-1) === '--help' || args.at(-1) === '-h' ? args.slice(0, -1) : args[0] === 'help' ? args.slice(1) : undefined;
  if (words !== undefined && words.every((word) => /^[a-z0-9_][a-z0-9_-]*$/.test(word))) early = `help/${['kactl', ...words].join(' ')}.txt`;
}
let text;
try {
  // A name no command has (or an alias) has no file: the bundle answers.
  if (early) text = fs.readFileSync(path.join(BUNDLE, early), 'utf8');
} catch {
  // Not built with these files: the bundle answers.
}
if (text !== undefined) {
  // Nothing else is set up on this path (not even the signal handlers): it is all of the cost.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') {
      // `kactl --version > /dev/full`: one sentence, as the bundle would say it.
      process.stderr.write(`error: Can't write to standard output: ${error.message}.\n`);
      process.exit(1);
    }
    process.exit(0);
  });
  process.stdout.write(early === 'version.txt' ? `${text}\n` : text);
} else {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal) => {
    interrupts += 1;
    // A second Ctrl-C means "now": don't wait for a clean shutdown.
    if (interrupts > 1) process.exit(signal === 'SIGINT' ? 130 : 143);
    controller.abort(new Error(signal));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // The reader went away (`kactl licenses list | head -1`): stop what is running (a bulk job must
  // not go on creating keys nobody will see) and leave quietly, as other Unix tools do. Any other
  // failure (a full disk, `> /dev/full`) is the bundle's to report: its next write to stdout
  // fails with a sentence (src/io/streams.ts), and stderr's own failures have nowhere to go.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error) => {
      if (error.code !== 'EPIPE') return;
      controller.abort(new Error('EPIPE'));
      process.exit(process.exitCode ?? 0);
    });
  }

  // V8's code cache on disk (bin/code-cache.js): later runs skip parsing and compiling the
  // bundle. Kept in a folder that is ours alone (bin/cache-folder.js), never Node's default one in
  // the temp folder, which every user shares; none when there is no such folder. Set up before
  // the bundle is required; NODE_DISABLE_COMPILE_CACHE turns it off.
  if (!process.env.NODE_DISABLE_COMPILE_CACHE) {
    const { cacheFolder } = require('./cache-folder.js');
    // The caches a command saves are named after its first word (`licenses`, `client`…); a word
    // that can be no command's (an option's value before it) names none.
    const first = args.find((arg) => !arg.startsWith('-')) ?? '';
    const run = /^[a-z][a-z0-9-]{0,31}$/.test(first) ? first : '';
    require('./code-cache.js').useCodeCache(BUNDLE, cacheFolder(), run);
  }
  void require(path.join(BUNDLE, 'cli.cjs'))
    .main(args, { signal: controller.signal })
    .then((code) => {
      process.exitCode = code;
    });
}
