/**
 * `kactl sandbox logs` lines (src/commands/sandbox/log-lines.ts): what the client saw first, a
 * mark for what is no refusal though the wire says so, and a long reason wrapped at spaces on a
 * terminal of known width (issue 33: `Generate` / `d` split mid-word), whole when piped.
 */
import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../../src/api/sandbox-admin.js';
import { logLine } from '../../../src/commands/sandbox/log-lines.js';

const NOW = Date.parse('2026-03-01T12:00:00');

function record(over: Partial<LoggedRequest> = {}): LoggedRequest {
  return {
    id: 1,
    time: new Date(NOW).toISOString(),
    api: '1.3',
    type: 'login',
    method: 'GET',
    path: '/api/1.3/',
    ip: '127.0.0.1',
    user: 'alice',
    params: {},
    status: 200,
    success: true,
    message: 'Logged in!',
    reason: 'alice logged in',
    durationMs: 3,
    delivery: 'answer',
    fault: null,
    faultId: null,
    faultKind: null,
    probe: false,
    empty: false,
    failed: false,
    ...over,
  };
}

const plain = { color: false, now: NOW };

describe('a log line', () => {
  it('says what a fault sent: no status for a reset, the fault first, the sandbox\'s own answer after', () => {
    const line = logLine(record({ status: 0, delivery: 'reset', success: false, message: null, failed: true, fault: '#3 reset', faultId: 3, faultKind: 'reset', reason: "the connection reset before any answer; the sandbox's own answer: alice logged in" }), plain);
    expect(line).toMatch(/^\d\d:\d\d:\d\d {2}✗ --- {2}1\.3 login {12}alice {8}\[fault #3 reset\] the connection reset before any answer; the sandbox's own answer: alice logged in$/);
    expect(logLine(record({ status: 503, failed: true, fault: '#4 status 503' }), plain)).toContain('✗ 503');
  });

  it('marks an empty list and kactl\'s own check with ·, as no refusal', () => {
    const empty = logLine(record({ api: 'seller', type: 'fetchallkeys', user: null, status: 406, success: false, message: 'No keys found', reason: null, empty: true }), plain);
    expect(empty).toMatch(/ · 406 {2}seller fetchallkeys {2}- {12}No keys found \(an empty list\)$/);
    const probe = logLine(record({ type: 'check', success: false, message: 'Session not found', reason: 'session 7a… not found', probe: true }), plain);
    expect(probe).toMatch(/ · 200 .* \(kactl's own check\) session 7a… not found$/);
  });

  it('a record of an older sandbox (no failed field) is judged by success and status', () => {
    const { failed: _failed, ...old } = record({ success: false, status: 200 });
    expect(logLine(old as LoggedRequest, plain)).toContain('✗ 200');
  });

  it('wraps a long reason at spaces under itself when the width is known, and not when piped', () => {
    const reason = 'the app has no download link to give, so the program cannot update itself: Generated a new one, try again later';
    const wide = logLine(record({ success: false, failed: true, reason }), plain);
    expect(wide.split('\n')).toHaveLength(1);
    const lines = logLine(record({ success: false, failed: true, reason }), { ...plain, width: 80 }).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    const start = lines[0]!.indexOf('the app');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    for (const line of lines.slice(1)) expect(line.slice(0, start)).toBe(' '.repeat(start));
    // Every word whole: joined again, the reason reads as it was.
    expect(lines.map((line, index) => (index === 0 ? line.slice(start) : line.trim())).join(' ')).toBe(reason);
    // A narrow terminal: continuation lines under a short indent, still whole words.
    const narrow = logLine(record({ success: false, failed: true, reason }), { ...plain, width: 60 }).split('\n');
    expect(narrow.slice(1).every((line) => line.startsWith('    ') && !line.startsWith('     '))).toBe(true);
    expect(narrow.map((line, index) => (index === 0 ? line.slice(line.indexOf('the app')) : line.trim())).join(' ')).toBe(reason);
  });
});
