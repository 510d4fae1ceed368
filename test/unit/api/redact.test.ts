import { describe, expect, it } from 'vitest';
import { isSensitiveName, MASK, maskValue, redactForm, redactObject, redactText, redactUrl, SENSITIVE_NAMES } from '../../../src/api/redact.js';

const SELLER_KEY = 'ab12cd34ef56ab12cd34ef56ab12cd34';
const PASSWORD = 'hunter2-correct-horse';

describe('maskValue', () => {
  it('keeps a short prefix of a long secret, so the user can tell which key was used', () => {
    expect(maskValue('sellerkey', SELLER_KEY)).toBe('ab12…');
  });

  it('masks a short value completely', () => {
    expect(maskValue('sessionid', '7e0uCJ5tCz')).toBe(MASK);
  });

  it('masks passwords completely whatever their length', () => {
    expect(maskValue('pass', PASSWORD)).toBe(MASK);
    expect(maskValue('passwd', PASSWORD)).toBe(MASK);
    expect(maskValue('secret', 'dfd2dc529fe2e87c77f29b651131a5f4631f915913ce8936d295d0ee4eb166a8')).toBe(MASK);
  });

  it('keeps the scheme of an Authorization header', () => {
    expect(maskValue('Authorization', 'Bearer 0123456789abcdef0123')).toBe('Bearer ***');
  });
});

describe('sensitive names', () => {
  it('matches names case-insensitively (sessionID, sessID, adminToken)', () => {
    for (const name of ['sessionID', 'sessID', 'adminToken', 'SellerKey', 'ENCKEY']) expect(isSensitiveName(name)).toBe(true);
    expect(isSensitiveName('username')).toBe(false);
    expect(SENSITIVE_NAMES).toContain('sellerkey');
  });
});

describe('redactForm and redactUrl', () => {
  it('masks sensitive query values and leaves the rest as sent', () => {
    const url = `http://127.0.0.1:4000/api/seller/?sellerkey=${SELLER_KEY}&type=add&expiry=30&mask=%2A%2A%2A`;
    const shown = redactUrl(url);
    expect(shown).toBe('http://127.0.0.1:4000/api/seller/?sellerkey=ab12…&type=add&expiry=30&mask=%2A%2A%2A');
    expect(shown).not.toContain(SELLER_KEY);
  });

  it('masks URL-encoded values and encoded names', () => {
    const form = new URLSearchParams({ username: 'bob', pass: 'p&ss w=rd', key: 'KEY-AAAA-BBBB-CCCC', enckey: 'abcdef0123456789' }).toString();
    const shown = redactForm(form);
    expect(shown).toBe('username=bob&pass=***&key=KEY-…&enckey=***');
  });

  it('masks both codes of an email-code login: the mailed `code` and the 2FA code sent as `totp`', () => {
    expect(redactUrl('http://127.0.0.1:4000/api/1.3/?type=emailCodeVerify&email=a%40b.c&code=123456&totp=654321')).toBe(
      'http://127.0.0.1:4000/api/1.3/?type=emailCodeVerify&email=a%40b.c&code=***&totp=***',
    );
  });

  it('masks a password in the URL user-info', () => {
    expect(redactUrl('https://admin:topsecretpassword@example.test/api/1.3/')).toBe('https://admin:***@example.test/api/1.3/');
  });
});

describe('redactObject', () => {
  it('masks nested fields and arrays of keys, without touching the input', () => {
    const input = { success: true, keys: ['AAAAAA-BBBBBB-CCCCCC', 'DDDDDD-EEEEEE-FFFFFF'], info: { username: 'bob', sessionid: 'abc' }, headers: { authorization: 'Bearer x' } };
    const out = redactObject(input);
    expect(out).toEqual({ success: true, keys: ['AAAA…', 'DDDD…'], info: { username: 'bob', sessionid: MASK }, headers: { authorization: 'Bearer ***' } });
    expect(input.keys[0]).toBe('AAAAAA-BBBBBB-CCCCCC');
  });
});

describe('redactText', () => {
  it('removes known secret values from free text, plain and URL-encoded', () => {
    const secret = 'pa ss/word+1';
    const text = `failed for ${secret} and ${encodeURIComponent(secret)}`;
    const out = redactText(text, [secret]);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
  });

  it('masks name=value pairs echoed in text even without knowing the value', () => {
    const out = redactText(`<p>GET /api/seller/?sellerkey=${SELLER_KEY}&type=fetchallkeys</p>`);
    expect(out).not.toContain(SELLER_KEY);
    expect(out).toContain('sellerkey=ab12…&type=fetchallkeys');
  });

  it('ignores values too short to mask safely', () => {
    expect(redactText('the key is abc', ['abc'])).toBe('the key is abc');
  });
});
