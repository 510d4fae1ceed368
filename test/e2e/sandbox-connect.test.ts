/**
 * `kactl sandbox connect <sdk>` against real sandboxes: for every library it names, the values
 * it prints are the running sandbox's, and they work: the printed URL answers `init` for the
 * printed app (signed with the printed key on 1.3; the C++ URL through its host name), the
 * printed kactl settings run kactl from an empty config, and the printed app setting for
 * libraries that send no HWID lets such a client in.
 */
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { startE2ESandbox } from '../helpers/e2e.js';
import { runKactl } from '../helpers/run-kactl.js';
import { verifyEd25519 } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { httpsPost } from '../helpers/tls-clients.js';

const SDKS = ['python', 'csharp', 'cpp', 'php', 'go', 'react', 'java', 'node'] as const;

interface Printed {
  sdk: string;
  api: '1.3' | '1.2';
  url: string;
  baseUrl: string;
  name: string;
  ownerid: string;
  version: string;
  publicKey: string;
  secret?: string;
  tls: boolean;
  caFile: string | null;
  hostname: string | null;
  port: number;
  cpp?: { host: string | null; ready: boolean; startCommands: string[]; allowedHosts: string[]; publicKeyHex: string; publicKeyArrays: { obf1: number[]; obf1Mask: number; obf2: number[]; obf2Mask: number; fnv1a: string } };
  sendsHwid: boolean;
  appSettings: string[];
  notes: string[];
}

describe('kactl sandbox connect <sdk> (HTTPS sandbox)', () => {
  it('prints, for each library, values that reach the running sandbox and check out', async () => {
    const sb = await startE2ESandbox({ args: ['--tls'] });
    const { caFile, hostname } = sb.info as unknown as { caFile: string; hostname: string };
    const ca = fs.readFileSync(caFile, 'utf8');
    const port = Number(new URL(sb.info.baseUrl).port);
    for (const sdk of SDKS.filter((name) => name !== 'cpp')) {
      const printed = await sb.json<Printed>(['sandbox', 'connect', sdk]);
      const api = sdk === 'java' || sdk === 'node' ? '1.2' : '1.3';
      expect(printed, sdk).toMatchObject({
        sdk,
        api,
        url: `${sb.info.baseUrl}/api/${api}/`,
        baseUrl: sb.info.baseUrl,
        name: sb.info.app.name,
        ownerid: sb.info.app.ownerid,
        version: sb.info.app.version,
        publicKey: sb.info.publicKey,
        tls: true,
        caFile,
        hostname,
        port,
        appSettings: ['php', 'react', 'node'].includes(sdk) ? ['kactl app set --force-hwid false'] : [],
      });
      expect(printed.secret, sdk).toBe(sdk === 'python' || sdk === 'csharp' ? sb.info.app.secret : undefined);
      // The printed URL, app and key work: init answers, signed with that key on 1.3.
      const answer = await httpsPost(printed.url, { type: 'init', name: printed.name, ownerid: printed.ownerid, ver: printed.version }, { ca, hosts: [hostname] });
      const body = JSON.parse(answer.body.toString()) as { success: boolean; sessionid?: string };
      expect(body, `${sdk}: ${answer.body.toString()}`).toMatchObject({ success: true, sessionid: expect.any(String) });
      if (api === '1.3') expect(verifyEd25519(printed.publicKey, answer.headers['x-signature-timestamp']!, answer.body, answer.headers['x-signature-ed25519']!), sdk).toBe(true);
    }

    // keyauth-js sends Host: keyauth.win: over HTTPS the node sheet says which --hostname it needs.
    expect((await sb.ok(['sandbox', 'connect', 'node'])).stdout).toContain('start the sandbox with  --tls --hostname keyauth.win');
    const py = await sb.ok(['sandbox', 'connect', 'python']);
    expect(py.stdout).toContain(`API URL     ${sb.info.baseUrl}/api/1.3/   (in keyauth.py, in place of https://keyauth.win/api/1.3/)`);
    expect(py.stdout).toContain(`public key  ${sb.info.publicKey}`);
    expect(py.stdout).toContain(`REQUESTS_CA_BUNDLE="${caFile}"`);

    // kactl's own settings, as printed for node, run kactl from an empty config folder.
    const node = await sb.ok(['sandbox', 'connect', 'node']);
    const setting = (name: string): string => new RegExp(`${name} +(\\S+)`).exec(node.stdout)![1]!;
    const elsewhere = await runKactl(['client', 'init'], {
      configDir: tempDir('kactl-connect-'),
      env: { KACTL_BASE_URL: setting('KACTL_BASE_URL'), KACTL_APP_NAME: setting('app.name'), KACTL_OWNERID: setting('app.ownerid'), KACTL_PUBLIC_KEY: setting('KACTL_PUBLIC_KEY'), NODE_EXTRA_CA_CERTS: caFile },
    });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);

    // The app setting printed for libraries that send no HWID is what lets them log in.
    const key = (await sb.ok(['licenses', 'create', '--amount', '1', '--expiry', '1'])).stdout.trim();
    const licenseWithoutHwid = async (): Promise<{ success: boolean; message: string }> => {
      const init = JSON.parse((await httpsPost(`${sb.info.baseUrl}/api/1.3/`, { type: 'init', name: sb.info.app.name, ownerid: sb.info.app.ownerid, ver: '1.0' }, { ca })).body.toString()) as { sessionid: string };
      const answer = await httpsPost(`${sb.info.baseUrl}/api/1.3/`, { type: 'license', key, sessionid: init.sessionid, name: sb.info.app.name, ownerid: sb.info.app.ownerid }, { ca });
      return JSON.parse(answer.body.toString()) as { success: boolean; message: string };
    };
    expect((await licenseWithoutHwid()).success).toBe(false);
    await sb.ok(['app', 'set', '--force-hwid', 'false']);
    expect(await licenseWithoutHwid()).toMatchObject({ success: true });
    await sb.stop();
  }, 120_000);
});

describe('kactl sandbox connect: refusals', () => {
  it('an unknown SDK is a usage error listing the known ones; a stopped sandbox is named', async () => {
    const sb = await startE2ESandbox();
    const unknown = await sb.kactl(['sandbox', 'connect', 'rust']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown SDK "rust"; choose one of: python, csharp, cpp, php, go, react, java, node.');
    // Over plain HTTP the C++ lines say what the SDK needs first.
    const cpp = await sb.ok(['sandbox', 'connect', 'c++']);
    expect(cpp.stdout).toContain('The current C++ library refuses loopback and accepts HTTPS on port 443 only');
    await sb.stop();
    const stopped = await sb.kactl(['sandbox', 'connect', 'python']);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toMatch(/No running sandbox serves profile "sandbox" \(http:\/\/127\.0\.0\.1:\d+\)\./);
  }, 60_000);
});

/** The machine's non-loopback addresses, as connect cpp finds them (IPv4 first, no link-local). */
function machineAddresses(): string[] {
  const found = Object.values(os.networkInterfaces()).flatMap((list) => list ?? []).filter((entry) => !entry.internal && !entry.address.startsWith('127.') && entry.address !== '::1' && !/^fe[89ab]/i.test(entry.address));
  return [...new Set([...found.filter((e) => e.family === 'IPv4'), ...found.filter((e) => e.family === 'IPv6')].map((e) => e.address))];
}

/** The bytes of a C array printed as `static const uint8_t NAME[64] = { 0x.., … };`. */
function printedArray(text: string, name: string): number[] {
  const body = new RegExp(`static const uint8_t ${name}\\[64\\] = \\{([^}]*)\\};`).exec(text)?.[1];
  expect(body, name).toBeDefined();
  return body!.split(',').map((byte) => Number.parseInt(byte.trim(), 16));
}

describe('kactl sandbox connect cpp: the route the current C++ library accepts (issue 32)', () => {
  it('on a loopback sandbox: the start command at a non-loopback address, main.cpp with set_allowed_hosts, both key forms, no hosts-file line', async () => {
    const sb = await startE2ESandbox({ args: ['--tls'] });
    const addresses = machineAddresses();
    const host = addresses[0] ?? 'ADDRESS';
    const cpp = await sb.ok(['sandbox', 'connect', 'cpp']);
    expect(cpp.stdout).not.toMatch(/hosts line|127\.0\.0\.1 kactl\.test/);
    expect(cpp.stdout).toContain('No hosts-file line: the library refuses any that names the API host.');
    const url = `https://${host.includes(':') ? `[${host}]` : host}/api/1.3/`;
    expect(cpp.stdout).toContain(`std::string url = skCrypt("${url}").decrypt();`);
    expect(cpp.stdout).toContain(`std::string ownerid = skCrypt("${sb.info.app.ownerid}").decrypt();`);
    expect(cpp.stdout).toContain(`KeyAuthApp.set_allowed_hosts({ "${host}" });`);
    if (addresses.length > 0) expect(cpp.stdout).toMatch(new RegExp(`kactl sandbox start --tls --host ${host.replace(/[.:]/g, '\\$&')} --port 443 .*--detach`));
    // The hex string for the x86 copy, and the two masked arrays, computed, for the current library.
    expect(cpp.stdout).toContain(`std::string API_PUBLIC_KEY = "${sb.info.publicKey}";`);
    const obf1 = printedArray(cpp.stdout, 'k_pubkey_obf1');
    const obf2 = printedArray(cpp.stdout, 'k_pubkey_obf2');
    // Decoded as the library decodes them: each byte XOR its mask is a character of the key.
    expect(Buffer.from(obf1.map((byte) => byte ^ 0x5a)).toString('ascii')).toBe(sb.info.publicKey);
    expect(Buffer.from(obf2.map((byte) => byte ^ 0xa5)).toString('ascii')).toBe(sb.info.publicKey);
    const printed = await sb.json<Printed>(['sandbox', 'connect', 'cpp']);
    expect(printed.cpp).toMatchObject({ host: addresses[0] ?? null, ready: false, allowedHosts: addresses.length > 0 ? [host] : [], publicKeyHex: sb.info.publicKey });
    expect(printed.cpp!.publicKeyArrays.obf1).toEqual(obf1);
    expect(printed.cpp!.publicKeyArrays.obf2).toEqual(obf2);
    expect(printed).not.toHaveProperty('hostsLine');
    await sb.stop();
  }, 60_000);
});

