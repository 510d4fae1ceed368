/** Byte-level fidelity against the protocol pages' captures and vectors. */
import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asciiJson, phpJson } from '../../src/server/http/json-encode.js';
import { ed25519Signature } from '../../src/server/http/signing.js';
import { hmacSha256Hex } from '../../src/api/verify.js';
import { decodeForm, countRawParam } from '../../src/server/http/form-decode.js';
import { sanitize, stripTags, phpTrim } from '../../src/server/dispatch/sanitize.js';
import { Params } from '../../src/server/dispatch/params.js';
import { verifyEd25519 } from '../helpers/sandbox.js';

describe('1.2 bodies and HMAC (docs/protocol/observed-peers.md captures)', () => {
  it('re-encodes capture 01_init byte for byte and reproduces its signature', () => {
    const captured =
      '{"success":true,"message":"Initialized","sessionid":"7e0uCJ5tCz","appinfo":{"numUsers":"N\\/A - Use fetchStats() function in latest example","numOnlineUsers":"N\\/A - Use fetchStats() function in latest example","numKeys":"N\\/A - Use fetchStats() function in latest example","version":"1.0","customerPanelLink":"https:\\/\\/keyauth.cc\\/panel\\/refowner\\/refapp\\/"},"newSession":true,"nonce":"Yp6ObEv0SEG078zYGobN8odkh3HTlN5z"}';
    const body = phpJson(JSON.parse(captured));
    expect(body).toBe(captured);
    expect(hmacSha256Hex('dfd2dc529fe2e87c77f29b651131a5f4631f915913ce8936d295d0ee4eb166a8', Buffer.from(body))).toBe('222109fbda4b21ffc3d49701ba29d72f22f7632420e6b186d63be3fdbe95ff5e');
  });

  it('reproduces capture 06_login under enckey-secret and 77_chatget with \\u escapes', () => {
    const login =
      '{"success":true,"message":"Logged in!","info":{"username":"refuser","subscriptions":[{"subscription":"default","key":"REFKEY-AAAAAA-BBBBBB","expiry":"1795387449","timeleft":86400,"level":"1"}],"ip":"127.0.0.1","hwid":"HWID-0123456789abcdef-linux","createdate":"1795301049","lastlogin":"1795301049"},"nonce":"aT4ANQP6SX5yRJfCAU4bTnZrdkoVEwec"}';
    expect(phpJson(JSON.parse(login))).toBe(login);
    expect(hmacSha256Hex('clientenckey0001-dfd2dc529fe2e87c77f29b651131a5f4631f915913ce8936d295d0ee4eb166a8', Buffer.from(login))).toBe(
      '7a1d12081ad03f1eddfecbd51bc6812de103854f498cfb137e6ec34eb765ee51',
    );
    const chat =
      '{"success":true,"message":"Successfully retrieved chat messages","messages":[{"author":"refuser","message":"hello-world","timestamp":1795301050},{"author":"refuser","message":"bold & \\"quoted\\" \\u00e9","timestamp":1795301145}],"nonce":"Fg3GJx9zc6UM4XCDjm40ycFnf9SKuhT8"}';
    expect(phpJson(JSON.parse(chat))).toBe(chat);
  });

  it('keeps slashes for invalidver (JSON_UNESCAPED_SLASHES)', () => {
    expect(phpJson({ success: false, message: 'invalidver', download: 'https://x/y' }, { escapeSlashes: false })).toBe('{"success":false,"message":"invalidver","download":"https://x/y"}');
  });

  it('ASCII JSON escapes astral characters as surrogate pairs', () => {
    expect(asciiJson({ a: '€😀' })).toBe('{"a":"\\u20ac\\ud83d\\ude00"}');
  });
});

describe('1.3 Ed25519 (docs/protocol/client-api.md §2.3 local vector)', () => {
  it('signs the RFC 8032 test key vector exactly', () => {
    const seed = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
    const key = createPrivateKey({ key: Buffer.from(`302e020100300506032b657004220420${seed}`, 'hex'), format: 'der', type: 'pkcs8' });
    const body = Buffer.from('{"success":true,"code":68,"message":"Session is validated.","nonce":"5c23dfd4-fe4f-4d69-a6db-6acc035149cd","ownerid":"AbCdEfGhIj"}');
    const signature = ed25519Signature(key, '1700000000', body);
    expect(signature).toBe('0c948a4a9c4e5f5e0d254af612097a58443c1c1e768292fb1e7fc742fd1eb3df25b040481a44cff1ebf75ebac9a88c07059338addc566c86f0d17104b900d508');
    expect(verifyEd25519('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', '1700000000', body, signature)).toBe(true);
  });
});

describe('parameters', () => {
  it('decodes forms strictly', () => {
    expect(decodeForm('a=1&b=x+y&c=%C3%A9&d&=e&&f=')).toEqual([
      ['a', '1'],
      ['b', 'x y'],
      ['c', 'é'],
      ['d', ''],
      ['', 'e'],
      ['f', ''],
    ]);
    expect(() => decodeForm('a=%')).toThrow(/percent/);
    expect(() => decodeForm('a=%C3')).toThrow(/UTF-8/);
    expect(countRawParam('type=a&x=1&type=b&types=c', 'type')).toBe(2);
  });

  it('sanitizes as PHP strip_tags(trim()) and treats empty as absent', () => {
    expect(phpTrim('\t\n x \0\v')).toBe('x');
    expect(stripTags('<b>bold</b> <a href=">">link</a><!-- c -->!')).toBe('bold link!');
    expect(stripTags('1 < 2 and <unclosed rest')).toBe('1 < 2 and ');
    expect(sanitize(' <i></i> ')).toBeUndefined();
    expect(sanitize('0')).toBe('0');
    expect(sanitize('HWID\n')).toBe('HWID');
  });

  it('reads the body before the query; the last duplicate wins within one source', () => {
    const params = Params.merge([['a', 'body'], ['e', '']], [['a', 'query'], ['b', 'q1'], ['b', 'q2'], ['e', 'query']]);
    expect(params.get('a')).toBe('body');
    expect(params.get('b')).toBe('q2');
    expect(params.get('e')).toBeUndefined();
    expect(params.raw('e')).toBe('');
    expect(params.raw('missing')).toBeUndefined();
    expect(params.with({ a: ' <b>x</b> ' }).get('a')).toBe('x');
  });
});
