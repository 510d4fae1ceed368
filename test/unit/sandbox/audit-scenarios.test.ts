/**
 * The audit's scenarios as data (src/sandbox/audit/scenarios*.ts, catalog.ts) and its report
 * (report.ts, and the CLI's table in commands/sandbox/audit-text.ts): every scenario the issue
 * asks for is there, on the right APIs, ranked among the findings; picking by id is checked;
 * the worst finding and the summary read as the issue wants.
 */
import { describe, expect, it } from 'vitest';
import { AUDIT_SCENARIO_DEFS, AUDIT_SCENARIOS, pickScenarios } from '../../../src/sandbox/audit/catalog.js';
import { countsOf, FINDING_ORDER, summaryOf, worstFinding, type AuditScenarioResult } from '../../../src/sandbox/audit/report.js';
import { newerVersion } from '../../../src/sandbox/audit/scenarios.js';
import { auditReportText, requestLine, scenarioListText } from '../../../src/commands/sandbox/audit-text.js';
import { UsageError } from '../../../src/errors.js';

const MUST_START = ['valid-license', 'valid-login'];
const MUST_REFUSE = [
  'forged',
  'unsigned',
  'tampered',
  'other-app',
  'stale',
  'future',
  'replayed',
  'unknown-key',
  'expired',
  'banned',
  'other-hwid',
  'blacklisted-hwid',
  'new-version',
  'paused',
  'app-disabled',
  'unreachable',
  'html',
  'truncated',
];
const INFORMATIONAL = ['replayed-fresh', 'emulated-secret'];

function result(id: string, status: AuditScenarioResult['status'], finding: string | null = null): AuditScenarioResult {
  const def = AUDIT_SCENARIO_DEFS.find((one) => one.id === id)!;
  return {
    id,
    title: def.title,
    sandbox: def.sandbox('1.3'),
    expected: def.expected,
    graded: def.graded,
    sound: def.sound,
    status,
    outcome: status === 'skipped' ? null : status === 'failed' ? 'accepted' : 'refused',
    did: status === 'failed' ? 'accepted (exit 0)' : 'refused (exit 1)',
    exitCode: status === 'skipped' ? null : status === 'failed' ? 0 : 1,
    signal: null,
    durationMs: 420,
    note: null,
    finding: status === 'failed' ? (finding ?? def.finding) : null,
    requests: [{ api: '1.3', type: 'license', status: 200, success: false, message: 'Invalid license key', reason: 'license AUDI… not found', fault: '#1 emulate' }],
    output: { stdout: '', stderr: '' },
  };
}

describe('the scenarios', () => {
  it('are the issue\'s: those that must start, those that must refuse, and the informational ones, once each', () => {
    const ids = AUDIT_SCENARIO_DEFS.map((def) => def.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(AUDIT_SCENARIO_DEFS.filter((def) => def.graded && def.expected === 'accepted').map((def) => def.id)).toEqual(MUST_START);
    expect(AUDIT_SCENARIO_DEFS.filter((def) => def.graded && def.expected === 'refused').map((def) => def.id).sort()).toEqual([...MUST_REFUSE].sort());
    expect(AUDIT_SCENARIO_DEFS.filter((def) => !def.graded).map((def) => def.id)).toEqual(INFORMATIONAL);
    for (const def of AUDIT_SCENARIO_DEFS.filter((one) => !one.graded)) expect(def.informational, def.id).toMatch(/\w/);
  });

  it('the 1.3-only ones need a timestamp or an ownerid; the HMAC-secret emulator is 1.2 only', () => {
    const on = (api: '1.3' | '1.2'): string[] => AUDIT_SCENARIO_DEFS.filter((def) => def.apis.includes(api)).map((def) => def.id);
    expect(AUDIT_SCENARIO_DEFS.map((def) => def.id).filter((id) => !on('1.2').includes(id))).toEqual(['other-app', 'stale', 'future']);
    expect(AUDIT_SCENARIO_DEFS.map((def) => def.id).filter((id) => !on('1.3').includes(id))).toEqual(['emulated-secret']);
  });

  it('each has its place among the findings, and says what the sandbox does and what a sound program does', () => {
    expect([...FINDING_ORDER].sort()).toEqual(AUDIT_SCENARIO_DEFS.map((def) => def.id).sort());
    for (const info of AUDIT_SCENARIOS) {
      expect(info.sound, info.id).toMatch(/\.$/);
      for (const text of Object.values(info.sandbox)) expect(text, info.id).toMatch(/\.$/);
      expect(info.finding, info.id).not.toMatch(/\.$/);
    }
    expect(AUDIT_SCENARIOS.find((info) => info.id === 'forged')?.sandbox['1.2']).toContain('HMAC by another secret');
  });

  it('picks by id, refusing an unknown one, one of the other API, and both lists at once', () => {
    expect(pickScenarios('1.3', ['forged', 'valid-license'], undefined).map((def) => def.id)).toEqual(['valid-license', 'forged']);
    expect(pickScenarios('1.3', undefined, ['forged']).map((def) => def.id)).not.toContain('forged');
    expect(pickScenarios('1.2', undefined, undefined).map((def) => def.id)).toContain('emulated-secret');
    expect(() => pickScenarios('1.3', ['forgd'], undefined)).toThrow(UsageError);
    expect(() => pickScenarios('1.3', ['forgd'], undefined)).toThrow(/Unknown audit scenario "forgd" in scenarios: use some of valid-license, /);
    expect(() => pickScenarios('1.2', ['stale'], undefined)).toThrow('stale does not run on client API 1.2; kactl sandbox audit --list says where each runs.');
    expect(() => pickScenarios('1.3', ['forged'], ['stale'])).toThrow('Give scenarios or skip, not both.');
    expect(() => pickScenarios('1.3', ['emulated-secret'], undefined)).toThrow(/does not run on client API 1.3/);
  });

  it('new-version asks for the next major version', () => {
    expect(newerVersion('1.0')).toBe('2.0');
    expect(newerVersion('9.4.2')).toBe('10.0');
    expect(newerVersion('beta')).toBe('beta.1');
  });
});

describe('the report', () => {
  it('names the worst finding: a refused customer first, then a fake server, before the customer states', () => {
    const results = [result('banned', 'failed'), result('stale', 'failed'), result('forged', 'failed'), result('valid-license', 'passed')];
    expect(worstFinding(results)).toEqual({ scenario: 'forged', finding: 'accepted an answer signed by another server: anyone can write a fake server for this program' });
    expect(worstFinding([...results, result('valid-license', 'failed')])?.scenario).toBe('valid-license');
    expect(worstFinding([result('forged', 'passed'), result('replayed-fresh', 'informational')])).toBeNull();
  });

  it('sums up in one sentence', () => {
    const passing = [result('valid-license', 'passed'), result('forged', 'passed'), result('replayed-fresh', 'informational'), result('valid-login', 'skipped')];
    expect(summaryOf(countsOf(passing), worstFinding(passing))).toBe('Passed: all 2 graded scenarios (1 informational, 1 skipped).');
    const failing = [...passing, result('unsigned', 'failed')];
    expect(summaryOf(countsOf(failing), worstFinding(failing))).toBe(
      'Failed 1 of 3 graded scenarios (1 informational, 1 skipped). Worst: accepted answers with no signature: anyone can write a fake server for this program (unsigned).',
    );
  });

  it('as a table for people: a row per scenario, its details wrapped to the width, the requests with their reasons', () => {
    const results = [result('valid-license', 'passed'), result('forged', 'failed'), result('valid-login', 'skipped')];
    const counts = countsOf(results);
    const worst = worstFinding(results);
    const text = auditReportText({ passed: false, summary: summaryOf(counts, worst), worst, api: '1.3', command: ['node', 'app.mjs'], durationMs: 1500, counts, scenarios: results }, 79);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('Audit of node app.mjs (client API 1.3), 3 scenarios in 1.5 s');
    expect(lines).toContain('SCENARIO       EXPECTED  RESULT          EXIT  TIME');
    expect(lines).toContain('forged         refused   FAIL: accepted  0     0.42 s');
    expect(lines).toContain('valid-login    accepted  skipped         -     -');
    expect(text).toContain('  finding   accepted an answer signed by another server: anyone can write a');
    expect(text).toContain('  requests  1.3 license refused: Invalid license key (license AUDI… not found)');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(79);
    const summary = lines.slice(lines.lastIndexOf('') + 1);
    expect(summary.join(' ')).toBe(summaryOf(counts, worst));
  });

  it('a request line says what was answered, why, and which fault changed it', () => {
    expect(requestLine({ api: '1.2', type: 'init', status: 200, success: true, message: 'Initialized', reason: null, fault: null })).toBe('1.2 init success: Initialized');
    expect(requestLine({ api: 'other', type: null, status: 404, success: null, message: null, reason: 'no such path', fault: null })).toBe('other (no type) status 404 (no such path)');
  });

  it('--list fits the width and says what each scenario does', () => {
    const text = scenarioListText(AUDIT_SCENARIOS, '1.3', 79);
    for (const line of text.trimEnd().split('\n')) expect([...line].length, line).toBeLessThanOrEqual(79);
    expect(text).toContain('forged: a fake server (emulator) (must be refused; client API 1.3 and');
    expect(text).not.toContain('emulated-secret');
    expect(scenarioListText(AUDIT_SCENARIOS, undefined, 79)).toContain('emulated-secret: a fake server with the app secret (1.2) (informational;');
  });
});
