/**
 * `expect_log:` in a flows file: a step passes when the sandbox's request inspector recorded a
 * request of that step matching it (the reason included), and fails naming what was recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const FLOWS = `seed:
  subscriptions: [ { name: default, level: 1 } ]
  licenses: [ { key: LOG-KEY-0001, level: 1, expiry: 1d } ]
flows:
  - name: the log says why the HWID was refused
    steps:
      - client: init
      - client: license
        with: { key: LOG-KEY-0001, hwid: HWID-LOG-TEST-AAAA-0001 }
      - client: license
        with: { key: LOG-KEY-0001, hwid: HWID-LOG-TEST-BBBB-0002 }
        expect: { success: false }
        expect_log: { type: license, success: false, reason: "/^HWID mismatch: license user LOG-… is locked to HWID-LOG-TEST-A…, the request sent HWID-LOG-TEST-B…$/" }
      - client: init
        with: { ver: "0.1" }
        expect: { success: false }
      - expect_log: { type: init, api: "1.3", reason: "app version is 1.0, the client sent 0.1 (the app has no download link to give)" }
  - name: a reason that is not the one given
    steps:
      - client: init
      - client: license
        with: { key: NO-SUCH-KEY-0001, hwid: HWID-LOG-TEST-AAAA-0001 }
        expect: { success: false }
        expect_log: { type: license, reason: /HWID mismatch/ }
`;

describe('kactl test: expect_log', () => {
  it('passes when a request of the step matches, fails naming what the log holds', async () => {
    const dir = tempDir('kactl-flows-log-');
    const file = path.join(dir, 'flows.yaml');
    fs.writeFileSync(file, FLOWS);
    const junit = path.join(dir, 'junit.xml');
    const result = await runKactl(['test', file, '--junit', junit], { configDir: dir, timeoutMs: 120_000 });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain('  ok the log says why the HWID was refused');
    expect(result.stdout).toContain('    ok expect_log');
    expect(result.stdout).toContain(
      '    FAIL client license: expect_log: no request of this step matched {"type":"license","reason":"/HWID mismatch/"}; it sent "license" (success false, reason "license NO-S… not found")',
    );
    expect(result.stdout).toContain('2 flows: 1 passed, 1 failed.');
    expect(fs.readFileSync(junit, 'utf8')).toContain('failures="1"');
  }, 150_000);

  it('is part of the flows schema kactl schema prints', async () => {
    const dir = tempDir('kactl-flows-log-');
    const result = await runKactl(['schema', 'flows'], { configDir: dir });
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout) as { definitions?: unknown; properties: { flows: { items: { properties: { steps: { items: { properties: Record<string, unknown> } } } } } } };
    expect(Object.keys(schema.properties.flows.items.properties.steps.items.properties)).toContain('expect_log');
  });
});
