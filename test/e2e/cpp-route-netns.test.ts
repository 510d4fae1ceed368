/**
 * The route `kactl sandbox connect cpp` gives the current official C++ library, which refuses any
 * loopback URL (issue 32): a `--tls --host ADDRESS` sandbox on port 443 at a non-loopback address,
 * reached by a client applying the library's checks (test/fixtures/cpp-sdk-client.mjs) with the
 * URL, allowed host and masked key arrays connect printed. Everything runs inside a network
 * namespace the test makes (unshare), with the address on a dummy interface (or a veth pair where
 * the kernel has no dummy driver): no real network is touched, and port 443 there is the
 * namespace's own. Needs root, unshare, nsenter and ip (iproute2); CI runs as root and must not
 * skip it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, KACTL_BIN } from '../helpers/run-kactl.js';
import { tempDir } from '../helpers/temp-dir.js';

const ADDRESS = '198.51.100.7';
const CLIENT = path.resolve(import.meta.dirname, '..', 'fixtures', 'cpp-sdk-client.mjs');

/** Why namespaces cannot be made here, or undefined. */
function namespaceSkip(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'making a network namespace needs root (CI runs as root)';
  for (const tool of ['unshare', 'nsenter', 'ip']) {
    if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).error !== undefined && spawnSync(tool, ['-V'], { stdio: 'ignore' }).error !== undefined) return `${tool} is not installed (ip: Debian's iproute2)`;
  }
  const probe = spawnSync('unshare', ['--net', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) return `unshare --net is not allowed here: ${probe.stderr.trim()}`;
  return undefined;
}

let holder: ChildProcess | undefined;
let configDir: string | undefined;

/** Runs a command inside the namespace; its output and exit code. */
function inside(command: readonly string[], env: NodeJS.ProcessEnv = process.env): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync('nsenter', [`--net=/proc/${holder!.pid}/ns/net`, '--', ...command], { encoding: 'utf8', env, timeout: 90_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function kactlInside(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  return inside([process.execPath, KACTL_BIN, ...args], cleanEnv(configDir!));
}

/** A namespace held by a sleeping process, with lo up and ADDRESS on an interface of its own. */
async function makeNamespace(): Promise<string> {
  holder = spawn('unshare', ['--net', '--', 'sleep', '900'], { stdio: 'ignore' });
  // Until the holder has its own namespace (unshare then execs sleep in it).
  for (let tries = 0; tries < 100; tries++) {
    const own = fs.readlinkSync('/proc/self/ns/net');
    let theirs = own;
    try {
      theirs = fs.readlinkSync(`/proc/${holder.pid}/ns/net`);
    } catch {
      // Not there yet.
    }
    if (theirs !== own) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const must = (command: string[]): void => {
    const result = inside(command);
    if (result.code !== 0) throw new Error(`${command.join(' ')} failed in the namespace: ${result.stderr}`);
  };
  must(['ip', 'link', 'set', 'lo', 'up']);
  let device = 'kactl0';
  if (inside(['ip', 'link', 'add', device, 'type', 'dummy']).code !== 0) {
    // No dummy driver: one end of a veth pair, both ends inside the namespace.
    must(['ip', 'link', 'add', device, 'type', 'veth', 'peer', 'name', 'kactl1']);
    must(['ip', 'link', 'set', 'kactl1', 'up']);
    device = 'kactl0';
  }
  must(['ip', 'addr', 'add', `${ADDRESS}/24`, 'dev', device]);
  must(['ip', 'link', 'set', device, 'up']);
  return device;
}

afterAll(() => {
  if (configDir !== undefined && holder !== undefined) kactlInside(['sandbox', 'stop', '--all']);
  if (holder?.pid !== undefined && holder.exitCode === null) holder.kill('SIGKILL');
});

describe('the C++ route inside a network namespace (issue 32)', () => {
  it('a --tls --host ADDRESS sandbox on port 443 passes init, license, check and login by a client applying the C++ library\'s checks', async (ctx) => {
    const skip = namespaceSkip();
    if (skip !== undefined) {
      if (process.env.CI) throw new Error(`CI must run the namespace test: ${skip}`);
      ctx.skip(skip);
    }
    await makeNamespace();
    configDir = tempDir('kactl-netns-');

    // The address is outside the authority's names: kactl asks, and --yes answers.
    const refused = kactlInside(['sandbox', 'start', '--tls', '--host', ADDRESS, '--port', '443', '--detach']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Make a certificate authority that may also sign for ${ADDRESS}: add --yes to confirm`);
    const started = kactlInside(['sandbox', 'start', '--tls', '--host', ADDRESS, '--port', '443', '--detach', '--yes', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const info = JSON.parse(started.stdout) as { baseUrl: string; app: { name: string; ownerid: string; version: string }; publicKey: string; caFile: string };
    // The ready line and status name the https URL with that address.
    expect(info.baseUrl).toBe(`https://${ADDRESS}:443`);
    expect(started.stderr).toContain(`every machine that can reach ${ADDRESS} can use its APIs and pages`);
    const status = JSON.parse(kactlInside(['sandbox', 'status', '--json']).stdout) as { baseUrl: string }[];
    expect(status.map((entry) => entry.baseUrl)).toEqual([`https://${ADDRESS}:443`]);

    // What connect prints is what the client is configured with.
    const printed = JSON.parse(kactlInside(['sandbox', 'connect', 'cpp', '--json']).stdout) as {
      url: string;
      cpp: { host: string; ready: boolean; allowedHosts: string[]; publicKeyArrays: { obf1: number[]; obf2: number[] } };
    };
    expect(printed.url).toBe(`https://${ADDRESS}/api/1.3/`);
    expect(printed.cpp).toMatchObject({ host: ADDRESS, ready: true, allowedHosts: [ADDRESS] });
    const text = kactlInside(['sandbox', 'connect', 'cpp']).stdout;
    expect(text).toContain(`KeyAuthApp.set_allowed_hosts({ "${ADDRESS}" });`);
    expect(text).not.toMatch(/start the sandbox|kactl sandbox start/);

    const key = kactlInside(['licenses', 'create', '--amount', '1', '--expiry', '1']);
    expect(key.code, key.stderr).toBe(0);
    const user = kactlInside(['users', 'create', '--username', 'cppuser', '--password', 'pw-1', '--sub', 'default', '--expiry', '1']);
    expect(user.code, user.stderr).toBe(0);
    const configFor = (url: string): string =>
      JSON.stringify({
        url,
        name: info.app.name,
        ownerid: info.app.ownerid,
        version: info.app.version,
        allowedHosts: printed.cpp.allowedHosts,
        obf1: printed.cpp.publicKeyArrays.obf1,
        obf2: printed.cpp.publicKeyArrays.obf2,
        caFile: info.caFile,
        license: key.stdout.trim(),
        username: 'cppuser',
        password: 'pw-1',
      });
    const walked = inside([process.execPath, CLIENT, configFor(printed.url)]);
    expect(walked.code, `${walked.stdout}${walked.stderr}`).toBe(0);
    const calls = walked.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; success: boolean; port: number });
    expect(calls.map((call) => [call.type, call.success, call.port])).toEqual([
      ['init', true, 443],
      ['license', true, 443],
      ['check', true, 443],
      ['login', true, 443],
    ]);

    // The same client refuses the loopback route, as the library does, before any request.
    const loopback = inside([process.execPath, CLIENT, configFor('https://127.0.0.1/api/1.3/').replace(`"allowedHosts":["${ADDRESS}"]`, '"allowedHosts":[]')]);
    expect(loopback.code).toBe(3);
    expect(JSON.parse(loopback.stdout)).toEqual({ refused: 'loopback or local host detected for API URL.' });
    expect(kactlInside(['sandbox', 'stop', '--all']).code).toBe(0);

    // Bound to every address (a container's habit), the certificate names ADDRESS through
    // --hostname: an IP address there is an IP name of the certificate. The authority made above
    // already may sign for it, so nothing is asked.
    const wildcard = kactlInside(['sandbox', 'start', '--tls', '--host', '0.0.0.0', '--hostname', ADDRESS, '--port', '443', '--detach']);
    expect(wildcard.code, wildcard.stderr).toBe(0);
    expect(wildcard.stderr).toContain(`https: certificate for ${ADDRESS}, localhost, 127.0.0.1, ::1`);
    const again = JSON.parse(kactlInside(['sandbox', 'connect', 'cpp', '--json']).stdout) as { url: string; cpp: { ready: boolean } };
    expect(again).toMatchObject({ url: `https://${ADDRESS}/api/1.3/`, cpp: { ready: true } });
    const rewalked = inside([process.execPath, CLIENT, configFor(again.url)]);
    expect(rewalked.code, `${rewalked.stdout}${rewalked.stderr}`).toBe(0);
    expect(rewalked.stdout.trim().split('\n')).toHaveLength(4);
    expect(kactlInside(['sandbox', 'stop', '--all']).code).toBe(0);
  }, 180_000);
});
