#!/usr/bin/env node
// A license check done the naive way, as many protected programs do it: it asks the server and
// trusts `"success": true`, without checking the answer's signature. Anyone who can answer in
// the server's place (a fake "emulator" server, a proxy that edits answers, a recording) gets
// in. `kactl sandbox audit -- node examples/audit/naive.mjs` shows which scenarios it fails:
// the forged, unsigned, tampered, other-app, stale, future and replayed answers.
import { createHash } from 'node:crypto';
import os from 'node:os';

const env = process.env;
const hwid = createHash('sha256').update(`${os.hostname()}/${os.userInfo().username}`).digest('hex');

async function call(params) {
  const answer = await fetch(env.KEYAUTH_URL, {
    method: 'POST',
    body: new URLSearchParams({ name: env.KEYAUTH_NAME, ownerid: env.KEYAUTH_OWNERID, ...params }),
  });
  return answer.json();
}

try {
  const init = await call({ type: 'init', ver: env.KEYAUTH_VERSION });
  if (!init.success) throw new Error(init.message);
  const login = await call({ type: 'license', key: env.KEYAUTH_LICENSE, hwid, sessionid: init.sessionid });
  if (!login.success) throw new Error(login.message);
  console.log('Welcome.');
} catch (error) {
  console.error(`Not started: ${error.message}`);
  process.exitCode = 1;
}
