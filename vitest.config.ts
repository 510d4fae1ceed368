import { configDefaults, defineConfig } from 'vitest/config';
import { testsThatRunTheBuild } from './test/helpers/test-kinds.js';

// Unit and server tests that run dist/ (the CLI's bundle, the built sandbox): with the e2e and
// browser tests, only `npm test` runs them, after it builds. The fast loop is the rest of unit
// and server: `npm run test:fast` (those two projects, with a worker per core: vitest's default
// for a run, one less than the cores, would leave one of a two-core machine's idle).
const RUN_THE_BUILD = testsThatRunTheBuild(import.meta.dirname, ['test/unit', 'test/server']);

export default defineConfig({
  test: {
    // End-to-end tests spawn real processes and servers; a timeout only guards against hangs, so
    // leave room for a slow or busy two-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // No test may reach past loopback; keep the environment of the developer out of the tests.
    env: { NO_COLOR: '1', KACTL_CONFIG_DIR: '', KACTL_PROFILE: '', KACTL_BASE_URL: '', KACTL_SELLER_KEY: '' },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: [...configDefaults.exclude, ...RUN_THE_BUILD] } },
      { extends: true, test: { name: 'server', include: ['test/server/**/*.test.ts'], exclude: [...configDefaults.exclude, ...RUN_THE_BUILD] } },
      { extends: true, test: { name: 'built', include: RUN_THE_BUILD } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
    ],
  },
});
