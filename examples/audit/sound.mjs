#!/usr/bin/env node
// A license check done the sound way, with kactl's own client library (kactl/client): every
// answer's signature is checked with the server's public key (1.3) or the app secret (1.2),
// with its timestamp, its ownerid, and against the answers seen before. It passes every graded
// scenario of `kactl sandbox audit`:
//
//   kactl sandbox audit -- node examples/audit/sound.mjs            # logs in with the license key
//   kactl sandbox audit -- node examples/audit/sound.mjs --user     # with the username and password
//
// It reads the sandbox and the test customer from the variables the audit sets (KEYAUTH_URL,
// KEYAUTH_NAME, …); in a real build those values are the hosted service's, compiled in.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { createClient } from 'kactl/client';

const env = process.env;
const api = /\/api\/1\.2\/?$/.test(env.KEYAUTH_URL ?? '') ? '1.2' : '1.3';
const client = createClient({
  // The server's root: the URL without its /api/1.x/ path.
  baseUrl: (env.KEYAUTH_URL ?? '').replace(/\/api\/1\.[23]\/?$/, ''),
  appName: env.KEYAUTH_NAME ?? '',
  ownerid: env.KEYAUTH_OWNERID ?? '',
  appVersion: env.KEYAUTH_VERSION ?? '',
  api,
  ...(api === '1.3' ? { publicKey: env.KEYAUTH_PUBLIC_KEY } : { secret: env.KEYAUTH_SECRET }),
});
// The same on every run on this machine, as a real program's hardware id is.
const hwid = createHash('sha256').update(`${os.hostname()}/${os.userInfo().username}`).digest('hex');

try {
  await client.init();
  const answer = process.argv.includes('--user')
    ? await client.login({ username: env.KEYAUTH_USERNAME ?? '', pass: env.KEYAUTH_PASSWORD ?? '', hwid })
    : await client.license({ key: env.KEYAUTH_LICENSE ?? '', hwid });
  console.log(`Welcome, ${answer.info.username}.`);
} catch (error) {
  console.error(`Not started: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
