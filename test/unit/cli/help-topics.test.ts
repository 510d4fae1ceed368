import { describe, expect, it } from 'vitest';
import { ENV_VARS } from '../../../src/env.js';
import { EXIT_CODE_MEANINGS, ExitCode } from '../../../src/errors.js';
import { runMain } from '../../helpers/run-main.js';

describe('help topics and version', () => {
  it('kactl help environment lists every variable of env.ts with its description', async () => {
    const { code, stdout } = await runMain(['help', 'environment']);
    expect(code).toBe(0);
    for (const [name, description] of Object.entries(ENV_VARS)) {
      expect(stdout).toContain(`  ${name}\n`);
      expect(stdout.replace(/\s+/g, ' ')).toContain(description);
    }
  });

  it('kactl help exit-codes lists every code of errors.ts with its meaning', async () => {
    const { code, stdout } = await runMain(['help', 'exit-codes']);
    expect(code).toBe(0);
    const flat = stdout.replace(/\s+/g, ' ');
    for (const [name, value] of Object.entries(ExitCode)) {
      expect(flat).toContain(`${value} ${EXIT_CODE_MEANINGS[name as keyof typeof ExitCode]}`);
    }
  });

  it('kactl help lists names every filter the catalog declares, and --json FIELDS and --jq (23.1)', async () => {
    const { SELLER_CATALOG } = await import('../../../src/api/seller-catalog/index.js');
    const { code, stdout } = await runMain(['help', 'lists']);
    expect(code).toBe(0);
    for (const op of SELLER_CATALOG.filter((o) => o.filters !== undefined)) {
      expect(stdout).toContain(`kactl ${op.group} list\n`);
      for (const filter of op.filters!) expect(stdout).toMatch(new RegExp(`^ {4}--${filter.flag}\\b`, 'm'));
    }
    expect(stdout).toContain('--json FIELDS');
    expect(stdout).toContain('--jq EXPR');
    expect(stdout).toContain('the seller API filters nothing');
    expect((await runMain(['--help'])).stdout).toContain('kactl help lists');
  });

  it("the program's help names every code and variable, from the same sources", async () => {
    const { stdout } = await runMain(['--help']);
    const flat = stdout.replace(/\s+/g, ' ');
    for (const value of Object.values(ExitCode)) expect(flat).toMatch(new RegExp(`Exit codes:.*\\b${value} [a-z]`));
    for (const name of Object.keys(ENV_VARS)) expect(flat).toContain(name);
    expect(flat).toContain('kactl help exit-codes');
    expect(flat).toContain('kactl help environment');
  });

  it('kactl version prints kactl, Node, platform and arch, and --json a record', async () => {
    const text = await runMain(['version']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^kactl \d+\.\d+\.\d+\nnode \d+\.\d+\.\d+\nplatform \w+ \w+\n$/);
    const json = JSON.parse((await runMain(['version', '--json'])).stdout) as Record<string, string>;
    expect(Object.keys(json)).toEqual(['kactl', 'node', 'platform', 'arch']);
    expect(json.node).toBe(process.versions.node);
  });
});
