/** var, getvar, setvar, chatget, chatsend over real HTTP (docs/protocol/client-api.md §4.11–4.15). */
import { describe, expect, it } from 'vitest';
import { fakeClock, hmacHex, startTestSandbox } from '../helpers/sandbox.js';
import { createChannel, muteUser } from '../../src/server/domain/chat.js';
import { createGlobalVar } from '../../src/server/domain/global-vars.js';
import { setUserVar } from '../../src/server/domain/user-vars.js';
import { findUser } from '../../src/server/domain/users.js';
import { HWID, hmacKey, init12, registerUser, withoutNonce } from './support/client-fixtures.js';

const V12 = { api: '1.2', method: 'POST' } as const;

describe('var (global variables)', () => {
  it('answers the value in message; an authed variable needs a login', async () => {
    const sb = await startTestSandbox();
    createGlobalVar(sb.store, sb.app().id, 'open', 'https://example.com/dl', false);
    createGlobalVar(sb.store, sb.app().id, 'secret', 'hello-from-appvar', true);
    const anonymous = await sb.init();
    const open = await sb.client('var', { sessionid: anonymous, varid: 'open' });
    expect(open.json).toMatchObject({ success: true, code: 68, message: 'https://example.com/dl' });
    expect((await sb.client('var', { sessionid: anonymous, varid: 'secret' })).json.message).toBe('Session is not validated');
    expect((await sb.client('var', { sessionid: anonymous, varid: 'nope' })).json.message).toBe('Variable not found.');
    expect((await sb.client('var', { sessionid: anonymous })).json.message).toBe('Variable not found.');
    const { sid } = await registerUser(sb);
    expect((await sb.client('var', { sessionid: sid, varid: 'secret' })).json.message).toBe('hello-from-appvar');
  });
});

describe('getvar and setvar (user variables)', () => {
  it('sets and reads back a variable, byte for byte on 1.2 (captures 11–13)', async () => {
    const sb = await startTestSandbox();
    const { username, pass } = await registerUser(sb);
    const sid = await init12(sb);
    const key = hmacKey(sb, 'clientenckey0001');
    const call = async (type: string, params: Record<string, string>) => {
      const res = await sb.client(type, { sessionid: sid, ...params }, V12);
      expect(res.headers.get('signature')).toBe(hmacHex(key, res.bytes));
      return res.text;
    };
    expect(await call('getvar', { var: 'color' })).toBe('{"success":false,"message":"Session is not validated"}');
    await call('login', { username, pass, hwid: HWID });
    expect(withoutNonce(await call('setvar', { var: 'color', data: 'blue' }))).toBe('{"success":true,"message":"Successfully set variable","nonce":"N"}');
    expect(withoutNonce(await call('getvar', { var: 'color' }))).toBe('{"success":true,"message":"Successfully retrieved variable","response":"blue","nonce":"N"}');
    expect(await call('getvar', { var: 'nope' })).toBe('{"success":false,"message":"Variable not found for user"}');
  });

  it('reproduces the 1.2 input-error quirks (success:true, no nonce; captures 72–73)', async () => {
    const sb = await startTestSandbox();
    const { username, pass } = await registerUser(sb);
    const sid = await init12(sb);
    await sb.client('login', { sessionid: sid, username, pass, hwid: HWID }, V12);
    const setvar = async (params: Record<string, string>) => sb.client('setvar', { sessionid: sid, ...params }, V12);
    const noData = await setvar({ var: 'color' });
    expect(noData.status).toBe(200);
    expect(noData.text).toBe('{"success":true,"message":"No variable data provided"}');
    expect(noData.headers.get('signature')).toBe(hmacHex(hmacKey(sb, 'clientenckey0001'), noData.bytes));
    expect((await setvar({ data: 'blue' })).text).toBe('{"success":true,"message":"No variable name provided"}');
    expect((await setvar({ var: 'color', data: 'x'.repeat(501) })).text).toBe('{"success":true,"message":"Variable data must be 500 characters or less"}');
    expect((await sb.client('getvar', { sessionid: sid, var: 'color' }, V12)).json.message).toBe('Variable not found for user');
  });

  it('answers the same input errors as failures on 1.3, and refuses read-only variables and long names', async () => {
    const sb = await startTestSandbox();
    const { sid, username } = await registerUser(sb);
    const setvar = async (params: Record<string, string>): Promise<unknown> => (await sb.client('setvar', { sessionid: sid, ...params })).json;
    expect(await setvar({ var: 'color' })).toMatchObject({ success: false, code: 0, message: 'No variable data provided' });
    expect(await setvar({ data: 'blue' })).toMatchObject({ success: false, message: 'No variable name provided' });
    expect(await setvar({ var: 'color', data: 'x'.repeat(501) })).toMatchObject({ success: false, message: 'Variable data must be 500 characters or less' });
    expect(await setvar({ var: 'n'.repeat(100), data: 'x' })).toMatchObject({ success: false, message: 'Variable name must be 99 characters or less' });
    expect(await setvar({ var: 'color', data: 'x'.repeat(500) })).toMatchObject({ success: true, message: 'Successfully set variable' });
    expect(await setvar({ var: 'color', data: '0' })).toMatchObject({ success: true });
    expect((await sb.client('getvar', { sessionid: sid, var: 'color' })).json.response).toBe('0');
    setUserVar(sb.store, sb.app().id, findUser(sb.store, sb.app().id, username)!.id, 'plan', 'gold', { readOnly: true });
    expect(await setvar({ var: 'plan', data: 'platinum' })).toMatchObject({ success: false, message: 'Variable is read only' });
    expect((await sb.client('getvar', { sessionid: sid, var: 'plan' })).json.response).toBe('gold');
    const anonymous = await sb.init();
    expect((await sb.client('setvar', { sessionid: anonymous, var: 'a', data: 'b' })).json.message).toBe('Session is not validated');
  });

  it('keeps each user to their own variables', async () => {
    const sb = await startTestSandbox();
    const alice = await registerUser(sb, { username: 'alice' });
    const bob = await registerUser(sb, { username: 'bob' });
    await sb.client('setvar', { sessionid: alice.sid, var: 'color', data: 'red' });
    expect((await sb.client('getvar', { sessionid: bob.sid, var: 'color' })).json.message).toBe('Variable not found for user');
  });
});

describe('chat', () => {
  it('sends and reads messages oldest first, with the channel delay (captures 15–18, 74, 76–77)', async () => {
    const clock = fakeClock();
    const sb = await startTestSandbox({ now: clock.now });
    createChannel(sb.store, sb.app().id, 'general', 1);
    const { username, pass } = await registerUser(sb, { username: 'refuser' });
    const sid = await init12(sb);
    await sb.client('login', { sessionid: sid, username, pass, hwid: HWID }, V12);
    const call = async (type: string, params: Record<string, string>) => (await sb.client(type, { sessionid: sid, ...params }, V12)).text;
    const t0 = clock.seconds();

    expect(withoutNonce(await call('chatsend', { channel: 'general', message: 'hello-world' }))).toBe('{"success":true,"message":"Successfully sent chat message","nonce":"N"}');
    expect(await call('chatsend', { channel: 'general', message: 'again' })).toBe(`{"success":false,"message":"Chat slower, you've hit the delay limit"}`);
    expect(await call('chatsend', { channel: 'nochannel', message: 'x' })).toBe('{"success":false,"message":"Chat channel not found"}');
    expect(withoutNonce(await call('chatget', { channel: 'unknown' }))).toBe('{"success":true,"message":"Successfully retrieved chat messages","messages":[],"nonce":"N"}');
    clock.advance(1);
    await call('chatsend', { channel: 'general', message: '<b>bold</b> & "quoted" é' });
    expect(withoutNonce(await call('chatget', { channel: 'general' }))).toBe(
      `{"success":true,"message":"Successfully retrieved chat messages","messages":[{"author":"refuser","message":"hello-world","timestamp":${t0}},{"author":"refuser","message":"bold & \\"quoted\\" \\u00e9","timestamp":${t0 + 1}}],"nonce":"N"}`,
    );
  });

  it('refuses muted users until the mute runs out, blank and over-long messages, unlogged sessions', async () => {
    const sb = await startTestSandbox();
    createChannel(sb.store, sb.app().id, 'general', 0);
    const { sid, username } = await registerUser(sb);
    const { now } = await sb.clock();
    muteUser(sb.store, sb.app().id, username, now + 3600);
    const send = async (message: string | undefined) => (await sb.client('chatsend', { sessionid: sid, channel: 'general', message })).json.message as string;
    expect(await send('hi')).toMatch(/^You're muted from chat until [A-Z][a-z]+ \d{1,2}, \d{4}, \d{1,2}:\d{2} [ap]m$/);
    await sb.advance(3600);
    expect(await send('hi')).toBe('Successfully sent chat message');
    expect(await send(undefined)).toBe("Message can't be blank");
    expect(await send('x'.repeat(2001))).toBe('Message too long!');
    expect(await send('x'.repeat(2000))).toBe('Successfully sent chat message');
    const anonymous = await sb.init();
    expect((await sb.client('chatget', { sessionid: anonymous, channel: 'general' })).json.message).toBe('Session is not validated');
    expect((await sb.client('chatsend', { sessionid: anonymous, channel: 'general', message: 'x' })).json.message).toBe('Session is not validated');
  });

  it('answers chatget on 1.3 with numeric timestamps, and [] for an unknown channel', async () => {
    const sb = await startTestSandbox();
    createChannel(sb.store, sb.app().id, 'general', 0);
    const { sid } = await registerUser(sb);
    await sb.client('chatsend', { sessionid: sid, channel: 'general', message: 'hi' });
    const got = await sb.client('chatget', { sessionid: sid, channel: 'general' });
    expect(got.json).toMatchObject({ success: true, code: 68, message: 'Successfully retrieved chat messages', messages: [{ author: 'alice', message: 'hi' }] });
    expect(typeof got.json.messages[0].timestamp).toBe('number');
    expect((await sb.client('chatget', { sessionid: sid, channel: 'elsewhere' })).json).toMatchObject({ success: true, messages: [] });
  });
});
