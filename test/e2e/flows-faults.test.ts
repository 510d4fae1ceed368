/**
 * `fault:` steps in a flows file: a flow can say "with a forged (or stale) signature, the client
 * must refuse" and pass; a flow whose program would accept a tampered answer fails, naming the
 * fault in the report and in JUnit; and no fault outlives its flow.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const FLOWS = `flows:
  - name: a forged or stale signature on check is refused
    steps:
      - client: init
      - fault: { kind: forge-signature, type: check }
      - client: check
        expect: { exit: 5 }
      - fault: clear
      - fault: stale-timestamp 10m
      - client: check
        expect: { exit: 5 }
  - name: a program that trusts a tampered answer
    steps:
      - fault: tamper
      - client: init
  - name: the next flow meets a sandbox without faults
    steps:
      - client: init
`;

describe('kactl test: fault steps', () => {
  it('runs steps under a fault, reports it, shows it in JUnit, and clears it when the flow ends', async () => {
    const dir = tempDir('kactl-flows-fault-');
    const file = path.join(dir, 'flows.yaml');
    fs.writeFileSync(file, FLOWS);
    const junit = path.join(dir, 'junit.xml');
    const result = await runKactl(['test', file, '--junit', junit], { configDir: dir, timeoutMs: 120_000 });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toContain('  ok a forged or stale signature on check is refused');
    expect(result.stdout).toContain('    ok fault forge-signature on type=check');
    expect(result.stdout).toContain('    ok client check (with fault forge-signature on type=check)');
    expect(result.stdout).toContain('    ok client check (with fault stale-timestamp 10m)');
    expect(result.stdout).toContain("    FAIL client init (with fault tamper): exit: expected 0, got 5 (The answer's Ed25519 signature does not match its body.)");
    expect(result.stdout).toContain('  ok the next flow meets a sandbox without faults');
    expect(result.stdout).toContain('3 flows: 2 passed, 1 failed.');

    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('<property name="fault" value="forge-signature on type=check"/>');
    expect(xml).toContain('<failure message="step 2 (client init, with fault tamper): exit: expected 0, got 5');
  }, 150_000);

  it('refuses an unknown fault kind in the object form before running anything', async () => {
    const dir = tempDir('kactl-flows-fault-');
    const file = path.join(dir, 'flows.yaml');
    fs.writeFileSync(file, 'flows:\n  - name: x\n    steps:\n      - fault: { kind: explode }\n');
    const result = await runKactl(['test', file], { configDir: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/expected one of forge-signature, stale-timestamp/);
  });
});
