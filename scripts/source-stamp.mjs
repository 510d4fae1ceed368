// What dist/ was built from, by content: `npm run build` records a hash of each input file in
// dist/source-stamp.json, and every test that runs dist/ compares it with the tree first
// (test/helpers/built.ts), so no test runs a build of other sources. Content, not modification
// times: after a `git checkout`, an incremental tsc leaves the outputs of unchanged files alone,
// so their times say nothing about which sources they came from.
//
// The build has several steps (tsc, the CLI's bundle, the library's build): `node
// scripts/source-stamp.mjs begin`, first, removes the stamp and takes the one of the inputs as
// they are before any step reads them; `… end`, last, puts it in place. A build that fails
// part-way, in any step, leaves no stamp, so the tests ask for a rebuild.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the build writes the stamp, from the repository root. */
export const STAMP_FILE = 'dist/source-stamp.json';

/** Where the stamp taken at the build's start waits for its last step. */
const PENDING_FILE = 'dist/source-stamp.pending.json';

/** The inputs of `npm run build`: the sources, the build scripts, and what decides the bundled packages and tsc's output. */
const INPUTS = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function walk(root, relative, out) {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return;
  if (fs.statSync(full).isDirectory()) {
    for (const name of fs.readdirSync(full).sort()) walk(root, path.join(relative, name), out);
  } else {
    out[relative.split(path.sep).join('/')] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
}

/** `{ files: { 'src/cli.ts': '<sha256>', … } }` for the tree at `root`. */
export function sourceStamp(root) {
  const files = {};
  for (const input of INPUTS) walk(root, input, files);
  return { files };
}

/** How the tree differs from the stamp: the files changed, added and removed since the build. */
function stampDifferences(recorded, current) {
  const differences = [];
  for (const [file, hash] of Object.entries(current.files)) {
    if (!(file in recorded.files)) differences.push(`${file} is new`);
    else if (recorded.files[file] !== hash) differences.push(`${file} changed`);
  }
  for (const file of Object.keys(recorded.files)) if (!(file in current.files)) differences.push(`${file} was removed`);
  return differences;
}

/** Why dist/ under `root` is not a build of the tree's sources, or undefined when it is. */
export function staleBuildReason(root) {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(path.join(root, STAMP_FILE), 'utf8'));
  } catch {
    return `dist/ has no build stamp (${STAMP_FILE}): there is no complete build`;
  }
  const differences = stampDifferences(recorded, sourceStamp(root));
  if (differences.length === 0) return undefined;
  const more = differences.length > 3 ? ` and ${differences.length - 3} more` : '';
  return `dist/ was built from other sources than the tree has: ${differences.slice(0, 3).join(', ')}${more}`;
}

/** The build's first step: no stamp while it runs; the one of the inputs as they are now, kept for endBuildStamp(). */
export function beginBuildStamp(root) {
  fs.rmSync(path.join(root, STAMP_FILE), { force: true });
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, PENDING_FILE), `${JSON.stringify(sourceStamp(root))}\n`);
}

/** The build's last step: the stamp beginBuildStamp() took, in place. */
export function endBuildStamp(root) {
  const pending = path.join(root, PENDING_FILE);
  if (!fs.existsSync(pending)) throw new Error(`${PENDING_FILE} is missing: the build did not start with \`node scripts/source-stamp.mjs begin\``);
  fs.renameSync(pending, path.join(root, STAMP_FILE));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const step = process.argv[2];
  if (step === 'begin') beginBuildStamp(root);
  else if (step === 'end') endBuildStamp(root);
  else throw new Error(`usage: node scripts/source-stamp.mjs begin|end (not ${String(step)})`);
}
