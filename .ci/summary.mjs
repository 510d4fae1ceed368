// Prints "N passed, N failed" from vitest's JSON reports (one a run: Node 20, Node 24), summed;
// a line per run before it. Exits 1 if any test failed or a run has no report or no tests.
import fs from 'node:fs';

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
  passed += runPassed;
  failed += runFailed;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && complete ? 0 : 1);
