import { describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('kactl (program)', () => {
  it('prints the version from package.json and exits 0', async () => {
    const { code, stdout } = await runMain(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints help with examples and exit codes on stdout', async () => {
    const { code, stdout, stderr } = await runMain(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('Usage: kactl');
    expect(stdout).toContain('Examples:');
    expect(stdout).toContain('Exit codes:');
  });

  it('shows help for a command through `kactl help <command>`', async () => {
    const { code, stdout } = await runMain(['help', 'profile']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: kactl profile');
  });

  it('answers an unknown command with usage on stderr and exit 2', async () => {
    const { code, stdout, stderr } = await runMain(['frobnicate']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("error: Unknown command 'frobnicate'.");
    expect(stderr).toContain('Usage: kactl');
  });

  it('answers an unknown flag with the command usage on stderr and exit 2', async () => {
    const dir = tempDir();
    const { code, stderr } = await runMain(['profile', 'list', '--bogus'], { env: { KACTL_CONFIG_DIR: dir } });
    expect(code).toBe(2);
    expect(stderr).toContain("error: Unknown option '--bogus'.");
    expect(stderr).toContain('Usage: kactl profile list');
  });

  it('answers a group without a verb with its help on stderr and exit 2', async () => {
    const { code, stderr } = await runMain(['profile']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: kactl profile');
  });

  it('rejects an output format it does not know', async () => {
    const { code, stderr } = await runMain(['profile', 'list', '-o', 'xml']);
    expect(code).toBe(2);
    expect(stderr).toContain('Allowed choices are table, json, yaml, ndjson, csv, tsv');
  });

  it('accepts global options before and after the command', async () => {
    const dir = tempDir();
    const env = { KACTL_CONFIG_DIR: dir };
    expect((await runMain(['profile', 'add', 'a', '--base-url', 'http://127.0.0.1:1', '--force'], { env })).code).toBe(0);
    const before = await runMain(['--json', 'profile', 'list'], { env });
    const after = await runMain(['profile', 'list', '--json'], { env });
    expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout));
    expect(JSON.parse(after.stdout)[0].name).toBe('a');
  });

  it('refuses --json together with a different -o', async () => {
    const { code, stderr } = await runMain(['profile', 'list', '--json', '-o', 'csv'], { env: { KACTL_CONFIG_DIR: tempDir() } });
    expect(code).toBe(2);
    expect(stderr).toContain('--json and -o csv');
  });
});
