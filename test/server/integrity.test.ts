/**
 * Integrity of answers (docs/protocol/client-api.md §2): Ed25519 on every 1.3 answer, checked with node:crypto
 * and nothing but the published public key; 1.2 HMAC keyed by the secret, then enckey-secret;
 * the JSON byte rules (ASCII, PHP slashes).
 */
import { describe, expect, it } from 'vitest';
import { hmacHex, startTestSandbox, verifyEd25519, type HttpResult } from '../helpers/sandbox.js';
import { fail, ok } from '../../src/server/dispatch/reply.js';
import { withSession } from '../../src/server/dispatch/session-guard.js';
import type { HandlerTable } from '../../src/server/dispatch/types.js';

/** Echo handlers: show what the encoders do with awkward text. */
const echoHandlers: HandlerTable = {
  echo: withSession((_ctx, params) => ok('echo', { value: params.get('value') ?? null })),
  boom: () => {
    throw new Error('secret internals /var/db password=hunter2');
  },
  refuse: withSession(() => fail('nope')),
};

function signedBy(publicKey: string, res: HttpResult): boolean {
  const timestamp = res.headers.get('x-signature-timestamp');
  const signature = res.headers.get('x-signature-ed25519');
  expect(timestamp).toMatch(/^\d{10}$/);
  expect(signature).toMatch(/^[0-9a-f]{128}$/);
  return verifyEd25519(publicKey, timestamp!, res.bytes, signature!);
}

describe('1.3 Ed25519 signatures', () => {
  it('signs successes, failures, KeyAuth_Invalid, global errors, rate limits and 500s', async () => {
    const sb = await startTestSandbox({ handlers: { client: echoHandlers } });
    const sid = await sb.init();
    const answers: HttpResult[] = [
      await sb.client('init'),
      await sb.client('check', { sessionid: sid }),
      await sb.client('logout', { sessionid: 'nope' }),
      await sb.client('init', { name: 'no-such-app' }),
      await sb.client('init', { ownerid: undefined }),
      await sb.client('init', { ownerid: 'short' }),
      await sb.client(undefined),
      await sb.client('bogus'),
      await sb.client('boom'),
      await sb.client('refuse', { sessionid: sid }),
      await sb.request('/api/1.3/?type=init&name=%zz'),
    ];
    for (const res of answers) expect(signedBy(sb.info.publicKey, res), res.text).toBe(true);
    expect(answers[3]!.text).toBe('KeyAuth_Invalid');
    expect(answers[3]!.status).toBe(200);
  });

  it('signs rate-limited answers too', async () => {
    const sb = await startTestSandbox({ rateLimit: true });
    let last: HttpResult | undefined;
    for (let i = 0; i < 201; i++) last = await sb.client('bogus');
    expect(last!.status).toBe(429);
    expect(signedBy(sb.info.publicKey, last!)).toBe(true);
  });

  it('does not verify against another key or a changed body', async () => {
    const sb = await startTestSandbox();
    const other = await startTestSandbox();
    const res = await sb.client('init');
    expect(signedBy(sb.info.publicKey, res)).toBe(true);
    expect(verifyEd25519(other.info.publicKey, res.headers.get('x-signature-timestamp')!, res.bytes, res.headers.get('x-signature-ed25519')!)).toBe(false);
    const tampered = Buffer.from(res.text.replace('Initialized', 'Initialised'));
    expect(verifyEd25519(sb.info.publicKey, res.headers.get('x-signature-timestamp')!, tampered, res.headers.get('x-signature-ed25519')!)).toBe(false);
  });

  it('stamps the signature with the sandbox clock', async () => {
    const sb = await startTestSandbox({ now: () => 1_700_000_000_500 });
    const res = await sb.client('init');
    expect(res.headers.get('x-signature-timestamp')).toBe('1700000000');
    expect(signedBy(sb.info.publicKey, res)).toBe(true);
  });

  it('carries code and ownerid on failures, and never a stack trace on a 500', async () => {
    const sb = await startTestSandbox({ handlers: { client: echoHandlers } });
    const res = await sb.client('boom');
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ success: false, code: 0, message: 'Error: internal server error', ownerid: sb.info.app.ownerid });
    expect(res.text).not.toContain('hunter2');
    // The server keeps serving.
    expect((await sb.client('init')).status).toBe(200);
  });
});

describe('1.2 HMAC signatures', () => {
  it('keys init by the app secret and later answers by enckey-secret', async () => {
    const sb = await startTestSandbox({ handlers: { client: echoHandlers } });
    const { secret } = sb.info.app;
    const init = await sb.client('init', { enckey: 'clientenckey0001' }, { api: '1.2', method: 'POST' });
    expect(init.json.success).toBe(true);
    expect(init.headers.get('signature')).toBe(hmacHex(secret, init.bytes));
    const sid = init.json.sessionid as string;

    const check = await sb.client('check', { sessionid: sid }, { api: '1.2', method: 'POST' });
    expect(check.text).toBe('{"success":false,"message":"Session is not validated"}');
    expect(check.headers.get('signature')).toBe(hmacHex(`clientenckey0001-${secret}`, check.bytes));

    const echo = await sb.client('echo', { sessionid: sid, value: 'x' }, { api: '1.2' });
    expect(echo.headers.get('signature')).toBe(hmacHex(`clientenckey0001-${secret}`, echo.bytes));
  });

  it('signs init failures with the secret', async () => {
    const sb = await startTestSandbox();
    const res = await sb.client('init', { ver: '0.1', enckey: 'abc' }, { api: '1.2' });
    expect(res.headers.get('signature')).toBe(hmacHex(sb.info.app.secret, res.bytes));
  });

  it('sends "No encryption key supplied" when the session has no enckey', async () => {
    const sb = await startTestSandbox();
    const init = await sb.client('init', {}, { api: '1.2', method: 'POST' });
    expect(init.headers.get('signature')).toBe('No encryption key supplied');
    const check = await sb.client('check', { sessionid: init.json.sessionid }, { api: '1.2' });
    expect(check.headers.get('signature')).toBe('No encryption key supplied');
  });

  it('keeps an enckey sent on a 1.3 init for later 1.2 calls', async () => {
    const sb = await startTestSandbox();
    const sid = await sb.init({ enckey: 'from13' });
    const check = await sb.client('check', { sessionid: sid }, { api: '1.2' });
    expect(check.headers.get('signature')).toBe(hmacHex(`from13-${sb.info.app.secret}`, check.bytes));
  });

  it('leaves the source’s unsigned answers unsigned', async () => {
    const sb = await startTestSandbox();
    for (const res of [
      await sb.client('check', { sessionid: 'ZZZZZZZZZZ' }, { api: '1.2' }),
      await sb.client('bogus', {}, { api: '1.2' }),
      await sb.client('init', { name: 'nope' }, { api: '1.2' }),
      await sb.client('init', { ownerid: undefined }, { api: '1.2' }),
    ]) {
      expect(res.headers.get('signature'), res.text).toBeNull();
      expect(res.headers.get('x-signature-ed25519')).toBeNull();
    }
  });

  it('uses the source’s texts and spellings', async () => {
    const sb = await startTestSandbox();
    expect((await sb.client('bogus', {}, { api: '1.2' })).text).toBe('{"success":false,"message":"The value inputted for type paramater was not found"}');
    expect((await sb.client('bogus')).json.message).toBe('The value inputted for type parameter was not found');
    expect((await sb.client('init', { ownerid: undefined }, { api: '1.2' })).text).toBe(
      '{"success":false,"message":"No OwnerID specified. Select app & copy code snippet from https:\\/\\/keyauth.cc\\/app\\/"}',
    );
    expect((await sb.client('init', { name: undefined }, { api: '1.2' })).json.message).toBe('No app name specified. Select app & copy code snippet from https://keyauth.cc/app/');
    expect((await sb.client('init', { ownerid: 'abc' }, { api: '1.2' })).json.message).toBe('OwnerID should be 10 characters long. Select app & copy code snippet from https://keyauth.cc/app/');
    expect((await sb.client('init', { name: 'nope' }, { api: '1.2' })).text).toBe('KeyAuth_Invalid');
  });
});

describe('JSON bytes', () => {
  it('writes pure ASCII with \\u escapes and leaves / alone in 1.3', async () => {
    const sb = await startTestSandbox({ handlers: { client: echoHandlers } });
    const sid = await sb.init();
    const res = await sb.client('echo', { sessionid: sid, value: 'é/ü 日本 😀 "q"' });
    expect([...res.bytes].every((b) => b < 0x80)).toBe(true);
    expect(res.text).toContain('"value":"\\u00e9/\\u00fc \\u65e5\\u672c \\ud83d\\ude00 \\"q\\""');
    expect(res.json.value).toBe('é/ü 日本 😀 "q"');
  });

  it('writes PHP json_encode style in 1.2: ASCII and \\/', async () => {
    const sb = await startTestSandbox({ handlers: { client: echoHandlers } });
    const sid = await sb.init();
    const res = await sb.client('echo', { sessionid: sid, value: 'a/b é' }, { api: '1.2' });
    expect(res.text).toMatch(/^\{"success":true,"message":"echo","value":"a\\\/b \\u00e9","nonce":"[A-Za-z0-9]{32}"\}$/);
  });

  it('sanitizes parameters as the real server: trim, strip tags, empty means absent', async () => {
    const sb = await startTestSandbox({ handlers: { client: echoHandlers } });
    const sid = await sb.init();
    const echo = async (value: string): Promise<unknown> => (await sb.client('echo', { sessionid: sid, value }, { method: 'POST' })).json.value;
    expect(await echo('  <b>bold</b> & "quoted" é\n')).toBe('bold & "quoted" é');
    expect(await echo('<script>x</script>')).toBe('x');
    expect(await echo('a < b')).toBe('a < b');
    expect(await echo('   ')).toBeNull();
    expect(await echo('<br>')).toBeNull();
    expect(await echo('0')).toBe('0');
  });
});
