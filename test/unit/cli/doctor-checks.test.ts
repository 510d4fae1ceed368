import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkNode, checkPermissions } from '../../../src/commands/doctor/checks.js';
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
});
