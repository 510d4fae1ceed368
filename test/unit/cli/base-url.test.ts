/**
 * Base URLs are checked where they enter — `--base-url`, KACTL_BASE_URL, `profile add` — so a
 * pasted API path or a missing scheme is one sentence and exit 2, never a request to a page that
 * does not exist ("error: Not found", exit 1) or "unexpected failure: Invalid URL".
 */
import { describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

const SELLER_KEY = 'k'.repeat(32);

async function run(argv: string[], env: Record<string, string> = {}) {
  return runMain(argv, { env: { KACTL_CONFIG_DIR: tempDir('kactl-base-url-'), KACTL_SELLER_KEY: SELLER_KEY, ...env } });
}

describe('a base URL naming an API path', () => {
  it.each([
    ['http://127.0.0.1:8787/api/1.3/', '/api/1.3/', 'http://127.0.0.1:8787'],
    ['http://127.0.0.1:8787/api/seller/', '/api/seller/', 'http://127.0.0.1:8787'],
    ['https://keyauth.win/api/1.2', '/api/1.2', 'https://keyauth.win'],
  ])('--base-url %s: exit 2, the path named and the base suggested', async (url, path, base) => {
    const result = await run(['licenses', 'list', '--base-url', url]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`names the API path ${path}`);
    expect(result.stderr).toContain(`give the server's root: ${base}.`);
    expect(result.stderr).not.toMatch(/unexpected failure|Not found/);
  });

  it('from KACTL_BASE_URL: exit 2, the variable named', async () => {
    const result = await run(['licenses', 'list'], { KACTL_BASE_URL: 'http://127.0.0.1:8787/api/1.3/' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/KACTL_BASE_URL: The base URL names the API path \/api\/1\.3\//);
  });

  it('profile add refuses it and stores nothing', async () => {
    const env = { KACTL_CONFIG_DIR: tempDir('kactl-base-url-') };
    const add = await runMain(['profile', 'add', 'prod', '--force', '--base-url', 'https://keyauth.win/api/1.3/'], { env });
    expect(add.code, add.stderr).toBe(2);
    expect(add.stderr).toContain("give the server's root: https://keyauth.win.");
    const list = await runMain(['profile', 'list', '--json'], { env });
    expect(list.stdout).not.toContain('prod');
  });

  it('a proxy prefix that is not an API path is kept', async () => {
    const env = { KACTL_CONFIG_DIR: tempDir('kactl-base-url-') };
    const add = await runMain(['profile', 'add', 'proxied', '--force', '--base-url', 'https://example.test/keyauth/'], { env });
    expect(add.code, add.stderr).toBe(0);
  });
});

describe('a base URL without a scheme', () => {
  it('--base-url 127.0.0.1:8787: usage error (exit 2) with the http:// form suggested', async () => {
    const result = await run(['licenses', 'list', '--base-url', '127.0.0.1:8787']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('has no scheme; give it with one, e.g. http://127.0.0.1:8787.');
    expect(result.stderr).not.toContain('unexpected failure');
  });

  it('KACTL_BASE_URL=localhost:8787: exit 2 too', async () => {
    const result = await run(['licenses', 'list'], { KACTL_BASE_URL: 'localhost:8787' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('e.g. http://localhost:8787.');
  });
});
