/**
 * The sandbox's option errors come from the library in its own words (`ownerid must be…`); the
 * CLI names its flags (`--ownerid must be…`), as it always has, with the usage line and exit 2.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKactl } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('kactl sandbox start with a wrong option', () => {
  it('names the flag, not the library option', async () => {
    const configDir = tempDir('kactl-sb-options-');
    const result = await runKactl(['sandbox', 'start', '--ownerid', 'short', '--data', ':memory:'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: --ownerid must be exactly 10 letters or digits.\nRun 'kactl sandbox start --help' for usage.\n");
  });

  it('names the flags of a clash with the store', async () => {
    const configDir = tempDir('kactl-sb-options-');
    const data = path.join(configDir, 'one.db');
    const first = await runKactl(['sandbox', 'start', '--data', data, '--app-name', 'one', '--detach'], { configDir });
    expect(first.code, first.stderr).toBe(0);
    expect((await runKactl(['sandbox', 'stop', '--all'], { configDir })).code).toBe(0);
    const clash = await runKactl(['sandbox', 'start', '--data', data, '--app-name', 'two'], { configDir });
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(`error: The store at ${data} already holds application "one" with another app-name ("one"); drop --app-name or use another --data file.\n`);
  });

  it('--detach: a server that fails before it is ready shows its error alone, not its own log lines above it', async () => {
    const configDir = tempDir('kactl-sb-options-');
    const missing = path.join(configDir, 'no-such-seed.yaml');
    const result = await runKactl(['sandbox', 'start', '--detach', '--data', ':memory:', '--no-profile', '--seed', missing], { configDir, timeoutMs: 60_000 });
    expect(result.code).toBe(2);
    // The server listened before the seed failed; "2026-…Z sandbox listening on …" is its log's, not the answer.
    expect(result.stderr).toBe(`error: Cannot read ${missing} (ENOENT).\nRun 'kactl sandbox start --help' for usage.\n`);
  });

  it('--cors takes an origin (scheme, host and port) or *, nothing else', async () => {
    const configDir = tempDir('kactl-sb-options-');
    for (const bad of ['app.example.test', 'https://app.example.test/path', 'ftp://app.example.test']) {
      const result = await runKactl(['sandbox', 'start', '--cors', bad, '--data', ':memory:'], { configDir });
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain(`"${bad}" is not an origin; give scheme, host and port only`);
    }
  });
});
