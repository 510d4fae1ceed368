import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkNode } from '../../../src/commands/doctor/checks.js';
import { checkFreeSpace, checkPermissions, checkWritable } from '../../../src/commands/doctor/local-checks.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('doctor: local checks', () => {
  it('judges the Node version, noting that Node 20 is past its end of life', () => {
    expect(checkNode('20.18.1').status).toBe('fail');
    expect(checkNode('18.20.0').status).toBe('fail');
    const twenty = checkNode('20.19.0');
    expect(twenty.status).toBe('pass');
    expect(twenty.detail).toContain('end of life');
    expect(checkNode('22.12.0')).toEqual({ check: 'node', status: 'pass', detail: 'Node 22.12.0' });
  });

  it('fails a config file or a backup others can read, naming the chmod', () => {
    const config = tempDir();
    const data = path.join(config, 'data');
    fs.chmodSync(config, 0o700);
    fs.writeFileSync(path.join(config, 'config.json'), '{}', { mode: 0o600 });
    expect(checkPermissions(config, data).status).toBe('pass');

    fs.mkdirSync(path.join(data, 'backups'), { recursive: true, mode: 0o700 });
    const backup = path.join(data, 'backups', 'one.json');
    fs.writeFileSync(backup, '[]');
    fs.chmodSync(backup, 0o644);
    expect(checkPermissions(config, data)).toEqual({ check: 'permissions', status: 'fail', detail: `${backup} is 0644; run: chmod 600 ${backup}` });

    fs.chmodSync(backup, 0o600);
    fs.chmodSync(path.join(config, 'config.json'), 0o640);
    expect(checkPermissions(config, data).detail).toContain('config.json is 0640');
  });

  it('passes a folder others may read (a `mkdir` 0755) and fails one they may write', () => {
    const config = tempDir();
    fs.writeFileSync(path.join(config, 'config.json'), '{}', { mode: 0o600 });
    fs.chmodSync(config, 0o755);
    expect(checkPermissions(config, path.join(config, 'data')).status).toBe('pass');
    fs.chmodSync(config, 0o775);
    expect(checkPermissions(config, path.join(config, 'data'))).toEqual({ check: 'permissions', status: 'fail', detail: `${config} is 0775; run: chmod 700 ${config}` });
  });

  it('fails a data folder others may read, and the sandbox store, registry, pacing and logs in it', () => {
    const config = tempDir();
    fs.writeFileSync(path.join(config, 'config.json'), '{}', { mode: 0o600 });
    const data = path.join(config, 'data');
    fs.mkdirSync(data, { mode: 0o700 });
    fs.chmodSync(data, 0o755);
    expect(checkPermissions(config, data)).toEqual({ check: 'permissions', status: 'fail', detail: `${data} is 0755; run: chmod 700 ${data}` });
    fs.chmodSync(data, 0o700);
    const store = path.join(data, 'sandbox.db');
    fs.writeFileSync(store, '');
    fs.chmodSync(store, 0o644);
    expect(checkPermissions(config, data).detail).toBe(`${store} is 0644; run: chmod 600 ${store}`);
    fs.chmodSync(store, 0o600);
    for (const [folder, file] of [['sandboxes', 'sandbox-20260101T000000-abcdef.log'], ['sandboxes', 'file-0123.json'], ['pacing', 'seller-pace-ab.json']] as const) {
      fs.mkdirSync(path.join(data, folder), { recursive: true, mode: 0o700 });
      const entry = path.join(data, folder, file);
      fs.writeFileSync(entry, '{}', { mode: 0o600 });
      expect(checkPermissions(config, data).status).toBe('pass');
      fs.chmodSync(entry, 0o640);
      expect(checkPermissions(config, data).detail).toBe(`${entry} is 0640; run: chmod 600 ${entry}`);
      fs.chmodSync(entry, 0o600);
    }
    fs.chmodSync(path.join(data, 'pacing'), 0o755);
    expect(checkPermissions(config, data).detail).toBe(`${path.join(data, 'pacing')} is 0755; run: chmod 700 ${path.join(data, 'pacing')}`);
  });

  it('leaves a shared sticky data folder (KACTL_DATA_DIR=/tmp) alone, but not what kactl keeps in it', () => {
    const config = tempDir();
    const shared = tempDir();
    fs.chmodSync(shared, 0o1777);
    expect(checkPermissions(config, shared).status).toBe('pass');
    fs.writeFileSync(path.join(shared, 'sandbox.db'), '', { mode: 0o644 });
    fs.chmodSync(path.join(shared, 'sandbox.db'), 0o644);
    expect(checkPermissions(config, shared).status).toBe('fail');
  });

  it('writes a probe file and removes it and any folder it made; names the variable when it cannot', () => {
    const root = tempDir();
    const fresh = path.join(root, 'new', 'config');
    expect(checkWritable('config folder', fresh, 'KACTL_CONFIG_DIR')).toEqual({ check: 'config folder', status: 'pass', detail: `${fresh} takes a write` });
    expect(fs.readdirSync(root)).toEqual([]);
    // A folder under a file can never be made (ENOTDIR, even for root).
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    const blocked = checkWritable('data folder', path.join(file, 'data'), 'KACTL_DATA_DIR');
    expect(blocked.status).toBe('fail');
    expect(blocked.detail).toMatch(/cannot be written: .*ENOTDIR.*; set KACTL_DATA_DIR to a folder you can write$/);
    expect(fs.readdirSync(root)).toEqual(['a-file']);
  });

  it('fails when the data folder has less room than it needs', () => {
    const data = path.join(tempDir(), 'not-yet');
    expect(checkFreeSpace(data, 1).status).toBe('pass');
    const tight = checkFreeSpace(data, Number.MAX_SAFE_INTEGER);
    expect(tight.status).toBe('fail');
    expect(tight.detail).toMatch(/^only .* free for .*not-yet \(kactl wants .*\); free some space or set KACTL_DATA_DIR to a folder on another disk$/);
  });
});
