import { describe, expect, it } from 'vitest';
import { parseIoreg, parseRegQuery, parseWmic, readMachineId } from '../../../src/util/machine-id.js';

const missing = async (): Promise<string> => {
  throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
};

describe('machine id', () => {
  it('reads /etc/machine-id on Linux, trimmed of its newline', async () => {
    const read = async (path: string) => (path === '/etc/machine-id' ? '3d1219c7c4c5404aaa1f6d2a48adfda4\n' : missing());
    expect(await readMachineId({ platform: 'linux', readFile: read })).toBe('3d1219c7c4c5404aaa1f6d2a48adfda4');
  });

  it('falls back to the dbus machine id when /etc/machine-id is missing or empty', async () => {
    const files: Record<string, string> = { '/etc/machine-id': '  \n', '/var/lib/dbus/machine-id': 'abcdef0123456789abcdef0123456789\n' };
    const read = async (path: string) => files[path] ?? missing();
    expect(await readMachineId({ platform: 'linux', readFile: read })).toBe('abcdef0123456789abcdef0123456789');
  });

  it('is undefined when no source has one', async () => {
    expect(await readMachineId({ platform: 'linux', readFile: missing })).toBeUndefined();
    expect(await readMachineId({ platform: 'darwin', run: missing })).toBeUndefined();
    expect(await readMachineId({ platform: 'win32', run: missing })).toBeUndefined();
  });

  it('asks ioreg for the IOPlatformUUID on macOS', async () => {
    const calls: string[] = [];
    const run = async (file: string, args: readonly string[]) => {
      calls.push([file, ...args].join(' '));
      return '+-o J316sAP  <class IOPlatformExpertDevice>\n    "IOPlatformSerialNumber" = "C02XYZ"\n    "IOPlatformUUID" = "564D1A2B-7C3E-4F5A-9B8C-0D1E2F3A4B5C"\n';
    };
    expect(await readMachineId({ platform: 'darwin', run })).toBe('564D1A2B-7C3E-4F5A-9B8C-0D1E2F3A4B5C');
    expect(calls).toEqual(['ioreg -rd1 -c IOPlatformExpertDevice']);
  });

  it('reads the MachineGuid from the registry on Windows, and wmic when reg fails', async () => {
    const reg = async (file: string) => {
      if (file !== 'reg') throw new Error('not called');
      return '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography\r\n    MachineGuid    REG_SZ    0f8fad5b-d9cb-469f-a165-70867728950e\r\n';
    };
    expect(await readMachineId({ platform: 'win32', run: reg })).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
    const wmicOnly = async (file: string) => {
      if (file === 'reg') throw new Error('access denied');
      return 'UUID                                  \r\r\n4C4C4544-0042-3510-8052-B7C04F4E3232  \r\r\n\r\r\n';
    };
    expect(await readMachineId({ platform: 'win32', run: wmicOnly })).toBe('4C4C4544-0042-3510-8052-B7C04F4E3232');
  });

  it('parsers find nothing in unrelated text', () => {
    expect(parseIoreg('"IOPlatformSerialNumber" = "C02XYZ"')).toBeUndefined();
    expect(parseRegQuery('ERROR: The system was unable to find the specified registry key or value.')).toBeUndefined();
    expect(parseWmic('No Instance(s) Available.')).toBeUndefined();
  });
});
