// Prints "N passed, N failed" from vitest's JSON reports (one a run: a Node line each), summed;
// before it, a line per run and, under it, the run's time per file kind (the test folder: unit,
// server, e2e, browser), so a slow kind shows, and a line per failed test or file that did not
// load, with the first line of its error (CI shows only the end of its output: a flake must be
// named there to be found). Exits 1 if any test failed or a run has no report
// or no tests.
import fs from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const KINDS = ['unit', 'server', 'e2e', 'browser', 'library', 'package'];

/**
 * Seconds per file kind: each file counts from its first test's start to its last test's end
 * (what the JSON report records; a file's imports and hooks before its first test are not in it).
 */
function timeByKind(testResults) {
  const kinds = new Map();
  for (const result of testResults) {
    const kind = /[\\/]test[\\/]([^\\/]+)[\\/]/.exec(result.name)?.[1] ?? 'other';
    const entry = kinds.get(kind) ?? { files: 0, ms: 0 };
    entry.files += 1;
    entry.ms += Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0));
    kinds.set(kind, entry);
  }
  const order = [...KINDS.filter((kind) => kinds.has(kind)), ...[...kinds.keys()].filter((kind) => !KINDS.includes(kind)).sort()];
  return order.map((kind) => {
    const { files, ms } = kinds.get(kind);
    return `${kind} ${(ms / 1000).toFixed(1)} s (${files} file${files === 1 ? '' : 's'})`;
  });
}

/** At most this many failures are named per run; the rest are counted. */
const NAMED_FAILURES = 20;

/** The repository-relative path of a test file (`test/…`), else the name as reported. */
function testPath(name) {
  const match = /[\\/](test[\\/].*)$/.exec(name);
  return match ? match[1].replaceAll('\\', '/') : name;
}

/** The first non-empty line of an error text, cut to a line's width. */
function firstLine(text) {
  const line = (text ?? '').split('\n').map((part) => part.trim()).find((part) => part !== '') ?? '';
  // vitest's messages carry terminal colours when a terminal was seen.
  const plain = stripVTControlCharacters(line);
  return plain.length > 160 ? `${plain.slice(0, 159)}…` : plain;
}

/** "failed: FILE › TEST: ERROR" for each failed test, and for each file that failed to load. */
function failureLines(testResults) {
  const lines = [];
  for (const result of testResults) {
    const file = testPath(result.name ?? '');
    const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    if (result.status === 'failed' && failedTests.length === 0) lines.push(`failed: ${file}: ${firstLine(result.message) || 'the file did not run'}`);
    for (const test of failedTests) lines.push(`failed: ${file} › ${test.fullName ?? test.title}: ${firstLine(test.failureMessages?.[0])}`);
  }
  if (lines.length <= NAMED_FAILURES) return lines;
  return [...lines.slice(0, NAMED_FAILURES), `… and ${lines.length - NAMED_FAILURES} more`];
}

const files = process.argv.slice(2);
let passed = 0;
let failed = 0;
let complete = files.length > 0;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // No report: that run did not happen (install or build failed). It counts as a failure.
    console.log(`${file}: no report`);
    complete = false;
    continue;
  }
  const runPassed = report.numPassedTests ?? 0;
  // A test file that fails to load counts as a failure even though it has no tests.
  const runFailed = (report.numFailedTests ?? 0) + (report.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
  if (runPassed === 0) complete = false;
  console.log(`${file}: ${runPassed} passed, ${runFailed} failed`);
  const times = timeByKind(report.testResults ?? []);
  if (times.length > 0) console.log(`  time in tests by kind: ${times.join(', ')}`);
  for (const line of failureLines(report.testResults ?? [])) console.log(`  ${line}`);
  passed += runPassed;
  failed += runFailed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && complete ? 0 : 1);
