/**
 * `kactl --version` and `kactl --help` load no HTTP client, prompt, QR, table, config or SQLite
 * module: the CLI's cold start is a measured figure of this project (bench/cold-start.mjs).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KACTL_BIN, cleanEnv } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const HEAVY = ['undici', '@inquirer/prompts', '@inquirer/core', 'qrcode-terminal', 'cli-table3', 'conf', 'better-sqlite3', 'otpauth'];
const RECORDER = path.resolve(import.meta.dirname, '../fixtures/cli/record-imports.mjs');

function loadedModules(args: string[]): string[] {
  const dir = tempDir();
  const record = path.join(dir, 'imports.txt');
  const result = spawnSync(process.execPath, ['--import', RECORDER, KACTL_BIN, ...args], {
    env: cleanEnv(dir, { KACTL_RECORD_IMPORTS: record }),
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return fs.readFileSync(record, 'utf8').split('\n').filter(Boolean);
}

function heavyIn(urls: string[]): string[] {
  return HEAVY.filter((name) => urls.some((url) => url.includes(`/node_modules/${name}/`)));
}

describe('cold start', () => {
  it('records imports (the recorder works: a command that needs conf shows it)', () => {
    expect(heavyIn(loadedModules(['profile', 'list', '--json']))).toContain('conf');
  });

  it('kactl --version loads none of the heavy modules', () => {
    expect(heavyIn(loadedModules(['--version']))).toEqual([]);
  });

  it('kactl --help loads none of the heavy modules', () => {
    expect(heavyIn(loadedModules(['--help']))).toEqual([]);
  });

  it('help for groups and verbs loads none of the heavy modules', () => {
    for (const args of [['help', 'sandbox'], ['licenses', 'create', '--help'], ['client', '--help'], ['client', '2fa', 'enable', '--help'], ['demo', '--help']]) {
      expect(heavyIn(loadedModules(args)), args.join(' ')).toEqual([]);
    }
  });

  it('kactl --version loads no command group at all', () => {
    const groups = /\/commands\/(profile|client|seller|sandbox|demo)\b/;
    expect(loadedModules(['--version']).filter((url) => groups.test(url))).toEqual([]);
    // The recorder sees group modules when they do load.
    expect(loadedModules(['profile', '--help']).filter((url) => groups.test(url))).not.toEqual([]);
  });
});
