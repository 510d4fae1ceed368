import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn real processes and servers; a timeout only guards against hangs, so
    // leave room for a slow or busy two-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // No test may reach past loopback; keep the environment of the developer out of the tests.
    env: { NO_COLOR: '1', KACTL_CONFIG_DIR: '', KACTL_PROFILE: '', KACTL_BASE_URL: '', KACTL_SELLER_KEY: '' },
  },
});
