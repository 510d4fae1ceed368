// Prints "N passed, N failed" from vitest's JSON report; exits 1 if any test failed or none ran.
import fs from 'node:fs';

const file = process.argv[2];
let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed = report.numPassedTests ?? 0;
  // A test file that fails to load counts as a failure even though it has no tests.
  failed = (report.numFailedTests ?? 0) + (report.testResults ?? []).filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} catch {
  // No report: the tests did not run (install or build failed). Say so in the same format.
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
