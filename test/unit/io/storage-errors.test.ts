import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeOf, SetupError } from '../../../src/errors.js';
import { pathFailure, stdoutFailure, storageFailure } from '../../../src/io/storage-errors.js';
import { makeDir } from '../../../src/util/make-dir.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { makeReadOnly, mountSupport } from '../../helpers/mounts.js';

/** An error as node:fs makes them. */
function fsError(code: string, syscall: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: something, ${syscall} '${file}'`), { code, syscall, path: file, errno: -1 });
}

const folders = { configDir: '/home/u/.config/kactl', dataDir: '/home/u/.config/kactl/data' };

describe('what kactl says when it cannot write', () => {
  it('names the folder, what the system said and the variable that moves it, exit 1', () => {
    const lock = storageFailure(fsError('EROFS', 'mkdir', '/home/u/.config/kactl/.config.lock'), folders);
    expect(lock).toBeInstanceOf(SetupError);
    expect(exitCodeOf(lock!)).toBe(ExitCode.failure);
    expect(lock!.message).toBe(
      "Can't write kactl's config folder /home/u/.config/kactl (read-only file system (EROFS), at /home/u/.config/kactl/.config.lock); set KACTL_CONFIG_DIR to a folder you can write.",
    );
    // The data folder sits inside the config folder by default: it is named as itself.
    expect(storageFailure(fsError('ENOSPC', 'write', '/home/u/.config/kactl/data/sandboxes/x.json'), folders)!.message).toBe(
      "Can't write kactl's data folder /home/u/.config/kactl/data (no space left on the device (ENOSPC), at /home/u/.config/kactl/data/sandboxes/x.json); set KACTL_DATA_DIR to a folder you can write.",
    );
    expect(storageFailure(fsError('EACCES', 'open', '/home/u/.config/kactl'), folders)!.message).toBe(
      "Can't use kactl's config folder /home/u/.config/kactl (permission denied (EACCES)); set KACTL_CONFIG_DIR to a folder you can write.",
    );
  });

  it('names any other path alone, and leaves other errors to the caller', () => {
    expect(pathFailure(fsError('EIO', 'write', '/mnt/usb/keys.txt'), '/mnt/usb/keys.txt', folders).message).toBe("Can't use /mnt/usb/keys.txt: input/output error (EIO).");
    expect(storageFailure(fsError('ENOENT', 'open', '/x'), folders)).toBeUndefined();
    expect(storageFailure(new Error('boom'), folders)).toBeUndefined();
    expect(storageFailure(Object.assign(new Error('kill EPERM'), { code: 'EPERM', syscall: 'kill' }), folders)).toBeUndefined();
  });

  it('standard output is named as such, and marked so nothing more is printed there', () => {
    const failure = stdoutFailure(fsError('ENOSPC', 'write', ''));
    expect(failure.message).toBe("Can't write to standard output: no space left on the device (ENOSPC).");
    expect(failure.stream).toBe('stdout');
  });
});

describe('makeDir', () => {
  it('makes the folders, 0700', () => {
    const dir = path.join(tempDir(), 'a', 'b');
    makeDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    makeDir(dir);
  });

  it.skipIf(mountSupport() !== undefined)('fails with the real reason under a read-only folder, not ENOENT', () => {
    const parent = tempDir();
    makeReadOnly(parent);
    expect(() => makeDir(path.join(parent, 'a', 'b'))).toThrow(expect.objectContaining({ code: 'EROFS' }));
    // Node alone says ENOENT there: what this is for.
    expect(() => fs.mkdirSync(path.join(parent, 'a', 'b'), { recursive: true })).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
