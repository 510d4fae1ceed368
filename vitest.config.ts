import { configDefaults, defineConfig } from 'vitest/config';
import { testsThatMockModules, testsThatRunTheBuild } from './test/helpers/test-kinds.js';

// The unit and server files are split by what they need (test/helpers/test-kinds.ts): those
// that run dist/ (the CLI's bundle, the built sandbox) are `built`, which only `npm test` runs,
// after it builds; those that mock a module are `isolated`. The fast loop, `npm run test:fast`,
// is `unit`, `server` and `isolated`, with a worker per core (vitest's default for a run, one
// less than the cores, would leave one of a two-core machine's idle).
const DIRS = ['test/unit', 'test/server'];
const RUN_THE_BUILD = testsThatRunTheBuild(import.meta.dirname, DIRS);
const MOCK_MODULES = testsThatMockModules(import.meta.dirname, DIRS);
const ELSEWHERE = [...configDefaults.exclude, ...RUN_THE_BUILD, ...MOCK_MODULES];

export default defineConfig({
  test: {
    // End-to-end tests spawn real processes and servers; a timeout only guards against hangs, so
    // leave room for a slow or busy two-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // No test may reach past loopback; keep the environment of the developer out of the tests.
    env: { NO_COLOR: '1', KACTL_CONFIG_DIR: '', KACTL_PROFILE: '', KACTL_BASE_URL: '', KACTL_SELLER_KEY: '' },
    // The hooks that undo what the shared helpers made, for every file (test/helpers/cleanup.ts).
    setupFiles: ['test/setup/cleanup-hooks.ts', 'test/setup/native-handles.ts'],
    projects: [
      // One module graph per worker for all of its unit and server files: each file importing
      // the sources afresh was half of these tests' time.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: ELSEWHERE, isolate: false } },
      { extends: true, test: { name: 'server', include: ['test/server/**/*.test.ts'], exclude: ELSEWHERE, isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCK_MODULES } },
      { extends: true, test: { name: 'built', include: RUN_THE_BUILD } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
      // The library as programs use it (test/library: against a real sandbox, and the declarations
      // dist/lib ships), and the packed tarball installed (test/package: slow, `npm test` and CI).
      { extends: true, test: { name: 'library', include: ['test/library/**/*.test.ts'] } },
      { extends: true, test: { name: 'package', include: ['test/package/**/*.test.ts'] } },
    ],
  },
});
