/**
 * Run by vitest before every test file (vitest.config.ts `setupFiles`), isolated or not: the
 * hooks that undo what the shared helpers made for the file and its tests (test/helpers/cleanup.ts).
 */
import { afterAll, afterEach } from 'vitest';
import { runFileCleanups, runTestCleanups } from '../helpers/cleanup.js';

afterEach(runTestCleanups);
afterAll(runFileCleanups);
