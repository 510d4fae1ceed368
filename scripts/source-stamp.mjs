// What dist/ was built from, by content: `npm run build` records a hash of each input file in
// dist/source-stamp.json (scripts/bundle.mjs), and every test that runs dist/ compares it with
// the tree first (test/helpers/built.ts), so no test runs a build of other sources. Content, not
// modification times: after a `git checkout`, an incremental tsc leaves the outputs of unchanged
// files alone, so their times say nothing about which sources they came from.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the build writes the stamp, from the repository root. */
export const STAMP_FILE = 'dist/source-stamp.json';

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
