/**
 * `kactl sandbox audit --junit FILE`: the report as JUnit XML (the writer of `kactl test`,
 * flows/junit.ts), one testcase per scenario: a failure carries the finding, a skipped scenario
 * its reason, and every case what the sandbox did, what the program did and the requests it made
 * (system-out), so a CI server shows why without the console log.
 */
import { junitDocument, type JunitCase } from '../../flows/junit.js';
import type { AuditReport, AuditScenarioResult } from '../../sandbox/audit/report.js';
import { requestLine } from './audit-text.js';

function story(result: AuditScenarioResult): string {
  return [
    `sandbox: ${result.sandbox}`,
    `expected: ${result.expected} (${result.sound})`,
    `this program: ${result.did}`,
    ...(result.note === null ? [] : [`note: ${result.note}`]),
    ...result.requests.map((request) => `request: ${requestLine(request)}`),
  ].join('\n');
}

function scenarioCase(result: AuditScenarioResult, classname: string): JunitCase {
  const base = { classname, name: `${result.id}: ${result.title}`, ms: result.durationMs, systemOut: story(result) };
  if (result.status === 'skipped') return { ...base, skipped: { message: result.note ?? 'skipped' } };
  if (result.status !== 'failed') return base;
  const stderr = result.output.stderr.trim();
  const details = `${story(result)}${stderr === '' ? '' : `\nstderr (its end):\n${stderr}`}`;
  return { ...base, failure: { message: result.finding ?? result.did, type: result.outcome ?? 'audit', details } };
}

export function auditJunit(report: AuditReport): string {
  const classname = `kactl sandbox audit ${report.api}`;
  return junitDocument('kactl sandbox audit', [{ name: `${report.command.join(' ')} (client API ${report.api})`, ms: report.durationMs, cases: report.scenarios.map((result) => scenarioCase(result, classname)) }]);
}
