/**
 * Signature checks against fixed vectors. The values are copied from the protocol notes
 * (docs/protocol/client-api.md §2.2 and §2.3, docs/protocol/observed-peers.md captures) and were recomputed before being
 * copied; the tests never read files outside the repo.
 */
import { createPrivateKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeOf, SignatureError, UsageError } from '../../../src/errors.js';
import {
  ED25519_SPKI_PREFIX,
  ed25519PublicKey,
  hmacKeyFor,
  hmacSha256Hex,
  verifyEd25519,
  verifyHmac,
} from '../../../src/api/verify.js';

// RFC 8032 §7.1, test 1.
const RFC_SEED = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC_EMPTY_MESSAGE_SIGNATURE =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
// docs/protocol/client-api.md §2.3: the same key signing a 1.3 answer at timestamp 1700000000.
const VECTOR_TIMESTAMP = '1700000000';
const VECTOR_BODY = '{"success":true,"code":68,"message":"Session is validated.","nonce":"5c23dfd4-fe4f-4d69-a6db-6acc035149cd","ownerid":"AbCdEfGhIj"}';
const VECTOR_SIGNATURE =
  '0c948a4a9c4e5f5e0d254af612097a58443c1c1e768292fb1e7fc742fd1eb3df25b040481a44cff1ebf75ebac9a88c07059338addc566c86f0d17104b900d508';
const VECTOR_NOW_MS = 1_700_000_000_000;

function expectSignatureError(fn: () => unknown, message: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(SignatureError);
  expect(exitCodeOf(caught as SignatureError)).toBe(ExitCode.signature);
  expect((caught as Error).message).toMatch(message);
}

describe('Ed25519 public key import', () => {
  it('turns the RFC 8032 raw key into a key that verifies the RFC signature', () => {
    const key = ed25519PublicKey(RFC_PUBLIC);
    expect(verify(null, Buffer.alloc(0), key, Buffer.from(RFC_EMPTY_MESSAGE_SIGNATURE, 'hex'))).toBe(true);
    expect(key.export({ format: 'der', type: 'spki' }).toString('hex')).toBe(ED25519_SPKI_PREFIX + RFC_PUBLIC);
  });

  it('refuses a key that is not 64 hex characters as a usage error', () => {
    expect(() => ed25519PublicKey('abcd')).toThrow(UsageError);
  });
});

describe('verifyEd25519 with the RFC 8032 key (docs/protocol/client-api.md §2.3 vector)', () => {
  const headers = { 'x-signature-ed25519': VECTOR_SIGNATURE, 'x-signature-timestamp': VECTOR_TIMESTAMP };

  it('accepts the vector and returns the timestamp', () => {
    expect(verifyEd25519({ headers, body: Buffer.from(VECTOR_BODY), publicKey: RFC_PUBLIC, nowMs: VECTOR_NOW_MS + 5_000 })).toBe(1_700_000_000);
  });

  it('accepts an upper-case signature', () => {
    const upper = { ...headers, 'x-signature-ed25519': VECTOR_SIGNATURE.toUpperCase() };
    expect(() => verifyEd25519({ headers: upper, body: Buffer.from(VECTOR_BODY), publicKey: RFC_PUBLIC, nowMs: VECTOR_NOW_MS })).not.toThrow();
  });

  it('refuses the vector once it is older than the window, saying how old', () => {
    expectSignatureError(
      () => verifyEd25519({ headers, body: Buffer.from(VECTOR_BODY), publicKey: RFC_PUBLIC, nowMs: VECTOR_NOW_MS + 61_000 }),
      /timestamp is 61 s old; kactl accepts at most 60 s/,
    );
  });

  it('honours a wider window', () => {
    expect(() =>
      verifyEd25519({ headers, body: Buffer.from(VECTOR_BODY), publicKey: RFC_PUBLIC, nowMs: VECTOR_NOW_MS + 61_000, windowSec: 120 }),
    ).not.toThrow();
  });

  it('refuses the vector with one byte of the body changed', () => {
    const tampered = VECTOR_BODY.replace('validated', 'validateD');
    expectSignatureError(
      () => verifyEd25519({ headers, body: Buffer.from(tampered), publicKey: RFC_PUBLIC, nowMs: VECTOR_NOW_MS }),
      /Ed25519 signature does not match/,
    );
  });

  it('refuses the vector when the timestamp header was changed (it is part of the signed bytes)', () => {
    const moved = { ...headers, 'x-signature-timestamp': '1700000001' };
    expectSignatureError(
      () => verifyEd25519({ headers: moved, body: Buffer.from(VECTOR_BODY), publicKey: RFC_PUBLIC, nowMs: VECTOR_NOW_MS }),
      /signature does not match/,
    );
  });
});

describe('verifyEd25519 with a key pair made here', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  const body = Buffer.from('{"success":true,"code":68,"message":"Logged in!","ownerid":"AbCdEf1234"}');
  const now = 1_800_000_000_000;
  const signed = (key: KeyObject, timestamp: string, bytes: Buffer): Record<string, string> => ({
    'x-signature-timestamp': timestamp,
    'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(timestamp), bytes]), key).toString('hex'),
  });

  it('accepts a fresh, good signature', () => {
    expect(() => verifyEd25519({ headers: signed(privateKey, '1800000000', body), body, publicKey: publicHex, nowMs: now })).not.toThrow();
  });

  it('refuses a stale one', () => {
    expectSignatureError(
      () => verifyEd25519({ headers: signed(privateKey, '1799999900', body), body, publicKey: publicHex, nowMs: now }),
      /100 s old/,
    );
  });

  it('refuses one dated beyond the window in the future', () => {
    expectSignatureError(
      () => verifyEd25519({ headers: signed(privateKey, '1800000090', body), body, publicKey: publicHex, nowMs: now }),
      /90 s in the future/,
    );
  });

  it('refuses a tampered body', () => {
    const headers = signed(privateKey, '1800000000', body);
    expectSignatureError(
      () => verifyEd25519({ headers, body: Buffer.from(body.toString().replace('true', 'fals')), publicKey: publicHex, nowMs: now }),
      /signature does not match/,
    );
  });

  it('refuses a tampered signature', () => {
    const headers = signed(privateKey, '1800000000', body);
    const sig = headers['x-signature-ed25519']!;
    const flipped = `${sig.slice(0, 10)}${sig[10] === '0' ? '1' : '0'}${sig.slice(11)}`;
    expectSignatureError(
      () => verifyEd25519({ headers: { ...headers, 'x-signature-ed25519': flipped }, body, publicKey: publicHex, nowMs: now }),
      /signature does not match/,
    );
  });

  it('refuses a signature made by another key', () => {
    const other = createPrivateKey({ key: Buffer.from(`302e020100300506032b657004220420${RFC_SEED}`, 'hex'), format: 'der', type: 'pkcs8' });
    expectSignatureError(
      () => verifyEd25519({ headers: signed(other, '1800000000', body), body, publicKey: publicHex, nowMs: now }),
      /signature does not match/,
    );
  });

  it('refuses a signature that is not hex of the right length', () => {
    expectSignatureError(
      () => verifyEd25519({ headers: { 'x-signature-timestamp': '1800000000', 'x-signature-ed25519': 'zz' }, body, publicKey: publicHex, nowMs: now }),
      /signature does not match/,
    );
  });

  it('names the missing headers', () => {
    expectSignatureError(() => verifyEd25519({ headers: {}, body, publicKey: publicHex, nowMs: now }), /x-signature-ed25519 and x-signature-timestamp headers are missing/);
    expectSignatureError(
      () => verifyEd25519({ headers: { 'x-signature-ed25519': 'ab' }, body, publicKey: publicHex, nowMs: now }),
      /the x-signature-timestamp header is missing/,
    );
  });

  it('refuses a timestamp that is not a number', () => {
    expectSignatureError(
      () => verifyEd25519({ headers: { ...signed(privateKey, '1800000000', body), 'x-signature-timestamp': '2027-01-01' }, body, publicKey: publicHex, nowMs: now }),
      /not a number of seconds/,
    );
  });
});

// docs/protocol/client-api.md §2.2 (from the old docs' security-practices page).
const DOC_SECRET = '76489f2ba92ddf9132e28d56870004a62d30ec5b40eaf2071ae48036e7144b5f';
const DOC_VECTORS = [
  {
    name: 'init, keyed by the app secret',
    key: DOC_SECRET,
    body: '{"success":true,"message":"Initialized","sessionid":"b8Q1f62SdW","appinfo":{"numUsers":"6","numOnlineUsers":"120","numKeys":"1533","version":"1.0","customerPanelLink":"https:\\/\\/localhost\\/panel\\/wnelson03\\/test\\/"}}',
    signature: '8d0a11b00f44bee4e563117db28533943f5170854f5f65e69470c59bffb7d0d5',
  },
  {
    name: 'login, keyed by enckey-secret',
    key: `4a59f8ca-b304-47-${DOC_SECRET}`,
    body: '{"success":true,"message":"Logged in!","info":{"username":"3Y8FC2-MRHKUO-U9RH8I-GNHD2U-THK4X8-PW584D","subscriptions":[{"subscription":"default","key":"3Y8FC2-MRHKUO-U9RH8I-GNHD2U-THK4X8-PW584D","expiry":"1659657607"},{"subscription":"default","key":null,"expiry":"1659749662"}],"ip":"::1","hwid":null,"createdate":"1659225608","lastlogin":"1659363059"}}',
    signature: 'e2993347290077c90011694bf887975117bff08897106f9c501d75c48102f721',
  },
];

// docs/protocol/observed-peers.md: captures from the 1.2 PHP server. Secret = SHA-256 hex of "keyauth-ref-secret".
const REF_SECRET = 'dfd2dc529fe2e87c77f29b651131a5f4631f915913ce8936d295d0ee4eb166a8';
const CAPTURES = [
  {
    label: '01_init',
    type: 'init',
    enckey: 'clientenckey0001',
    body: '{"success":true,"message":"Initialized","sessionid":"7e0uCJ5tCz","appinfo":{"numUsers":"N\\/A - Use fetchStats() function in latest example","numOnlineUsers":"N\\/A - Use fetchStats() function in latest example","numKeys":"N\\/A - Use fetchStats() function in latest example","version":"1.0","customerPanelLink":"https:\\/\\/keyauth.cc\\/panel\\/refowner\\/refapp\\/"},"newSession":true,"nonce":"Yp6ObEv0SEG078zYGobN8odkh3HTlN5z"}',
    signature: '222109fbda4b21ffc3d49701ba29d72f22f7632420e6b186d63be3fdbe95ff5e',
  },
  {
    label: '02_getvar_unauth',
    type: 'getvar',
    enckey: 'clientenckey0001',
    body: '{"success":false,"message":"Session is not validated"}',
    signature: 'fbb3e4bf69e184db4857de8a95e6dc5b1bf04b585bae0716f2a5cb16becd94cc',
  },
  {
    label: '06_login',
    type: 'login',
    enckey: 'clientenckey0001',
    body: '{"success":true,"message":"Logged in!","info":{"username":"refuser","subscriptions":[{"subscription":"default","key":"REFKEY-AAAAAA-BBBBBB","expiry":"1795387449","timeleft":86400,"level":"1"}],"ip":"127.0.0.1","hwid":"HWID-0123456789abcdef-linux","createdate":"1795301049","lastlogin":"1795301049"},"nonce":"aT4ANQP6SX5yRJfCAU4bTnZrdkoVEwec"}',
    signature: '7a1d12081ad03f1eddfecbd51bc6812de103854f498cfb137e6ec34eb765ee51',
  },
  {
    label: '12_getvar',
    type: 'getvar',
    enckey: 'clientenckey0001',
    body: '{"success":true,"message":"Successfully retrieved variable","response":"blue","nonce":"kWP2LzUKytWsHWZl3nrIOowFVg67DIYG"}',
    signature: 'e8322ccf06bdd2b21c267570d3b0156ee05c1dc42b315f2e9247047c968167d2',
  },
  {
    label: '29_license_invalid',
    type: 'license',
    enckey: 'clientenckey0001',
    body: '{"success":false,"message":"Invalid license key"}',
    signature: '2f02193dca69916a41a4477f32cf28f59e61debe266063d89d1eaa099ccad21c',
  },
  {
    label: '45_init_badver',
    type: 'init',
    enckey: 'clientenckey0001',
    body: '{"success":false,"message":"invalidver","download":""}',
    signature: '50fd34dfd6a3f928b07ade48ba2d489f9e7e346caf774d2ed3822c32295b0cd8',
  },
  {
    label: '77_chatget (escaped quotes and \\u00e9)',
    type: 'chatget',
    enckey: 'k3',
    body: '{"success":true,"message":"Successfully retrieved chat messages","messages":[{"author":"refuser","message":"hello-world","timestamp":1795301050},{"author":"refuser","message":"bold & \\"quoted\\" \\u00e9","timestamp":1795301145}],"nonce":"Fg3GJx9zc6UM4XCDjm40ycFnf9SKuhT8"}',
    signature: '3c6583f87694020505893b782620f72f3a1ab739a4e3023001a4480e210bde7f',
  },
];

describe('HMAC-SHA256 (1.2)', () => {
  it.each(DOC_VECTORS)('matches the documented vector: $name', ({ key, body, signature }) => {
    expect(hmacSha256Hex(key, body)).toBe(signature);
    expect(() => verifyHmac({ headers: { signature }, body: Buffer.from(body), key, enckeySent: true })).not.toThrow();
  });

  it.each(CAPTURES)('verifies the captured answer $label with the key hmacKeyFor picks', ({ type, enckey, body, signature }) => {
    const key = hmacKeyFor(type, REF_SECRET, enckey);
    expect(key).toBe(type === 'init' ? REF_SECRET : `${enckey}-${REF_SECRET}`);
    expect(() => verifyHmac({ headers: { signature }, body: Buffer.from(body), key, enckeySent: true })).not.toThrow();
  });

  it('refuses a captured answer with its body changed', () => {
    const capture = CAPTURES[2]!;
    const body = Buffer.from(capture.body.replace('"level":"1"', '"level":"9"'));
    expectSignatureError(
      () => verifyHmac({ headers: { signature: capture.signature }, body, key: hmacKeyFor('login', REF_SECRET, capture.enckey), enckeySent: true }),
      /HMAC signature does not match/,
    );
  });

  it('refuses a captured answer checked with the wrong key (init key for a later call)', () => {
    const capture = CAPTURES[2]!;
    expectSignatureError(
      () => verifyHmac({ headers: { signature: capture.signature }, body: Buffer.from(capture.body), key: REF_SECRET, enckeySent: true }),
      /HMAC signature does not match/,
    );
  });

  it('accepts "No encryption key supplied" only when no enckey was sent', () => {
    const body = Buffer.from('{"success":true,"message":"Session is validated.","nonce":"Ngo1ijtZRALxlqS9bxECRi6KuR1Sc9iC"}');
    const headers = { signature: 'No encryption key supplied' };
    expect(() => verifyHmac({ headers, body, key: REF_SECRET, enckeySent: false })).not.toThrow();
    expectSignatureError(() => verifyHmac({ headers, body, key: REF_SECRET, enckeySent: true }), /no encryption key was supplied/);
  });

  it('refuses a missing signature header', () => {
    expectSignatureError(() => verifyHmac({ headers: {}, body: Buffer.from('{}'), key: REF_SECRET, enckeySent: true }), /signature header is missing/);
  });
});
