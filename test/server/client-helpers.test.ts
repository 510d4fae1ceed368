/** Small pieces of the client handlers and pages, without HTTP. */
import { describe, expect, it } from 'vitest';
import { phpUrlDecode } from '../../src/server/client/outbound.js';
import { escapeHtml } from '../../src/server/client/page-layout.js';
import { maskCredential } from '../../src/server/client/stats.js';
import { matchPages, type PageRoute } from '../../src/server/http/pages.js';
import { advanceClock, domainNow, getClockOffset, MAX_CLOCK_OFFSET, realNow, setClockOffset } from '../../src/server/domain/clock.js';
import { checkEmailCode, issueEmailCode, spendEmailCode } from '../../src/server/domain/email-codes.js';
import { createUser } from '../../src/server/domain/users.js';
import { openTestStore } from '../helpers/sandbox.js';

describe('phpUrlDecode', () => {
  it('decodes as PHP urldecode: + is a space, bad escapes stay, bytes are UTF-8', () => {
    expect(phpUrlDecode('&user=a%2Bb%26c')).toBe('&user=a+b&c');
    expect(phpUrlDecode('a+b')).toBe('a b');
    expect(phpUrlDecode('100%')).toBe('100%');
    expect(phpUrlDecode('%zz%4')).toBe('%zz%4');
    expect(phpUrlDecode('%C3%A9t%C3%A9')).toBe('été');
    expect(phpUrlDecode('déjà')).toBe('déjà');
  });
});

describe('maskCredential', () => {
  it('keeps 10 characters and stars the rest', () => {
    expect(maskCredential('refuser')).toBe('refuser');
    expect(maskCredential('0123456789')).toBe('0123456789');
    expect(maskCredential('0123456789AB')).toBe('0123456789**');
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});

describe('matchPages', () => {
  const handle = () => ({ body: '' });
  const pages: PageRoute[] = [
    { method: 'GET', path: '/sandbox/magic/:token', handle },
    { method: 'POST', path: '/sandbox/magic/:token', handle },
    { method: 'GET', path: '/sandbox/help', handle },
  ];

  it('matches fixed paths and :name segments, decoded, with or without a trailing slash', () => {
    expect(matchPages(pages, '/sandbox/help/').map((m) => m.page.method)).toEqual(['GET']);
    const magic = matchPages(pages, '/sandbox/magic/ab%20c/');
    expect(magic.map((m) => [m.page.method, m.pathParams['token']])).toEqual([['GET', 'ab c'], ['POST', 'ab c']]);
  });

  it('matches nothing for missing, extra or broken segments', () => {
    for (const path of ['/sandbox/magic', '/sandbox/magic/', '/sandbox/magic/a/b', '/sandbox/magic/%zz', '/other']) {
      expect(matchPages(pages, path), path).toEqual([]);
    }
  });

  it('an encoded slash stays inside its segment and reaches the page decoded', () => {
    expect(matchPages(pages, '/sandbox/magic/a%2Fb').map((m) => m.pathParams['token'])).toEqual(['a/b', 'a/b']);
  });
});

describe('domain clock', () => {
  it('adds the stored offset to real time, moves either way within 100 years, and gives real time back', () => {
    const t = openTestStore();
    expect(getClockOffset(t.store)).toBe(0);
    expect(domainNow(t.store, 1_700_000_000_999)).toBe(1_700_000_000);
    expect(advanceClock(t.store, 90)).toBe(90);
    expect(advanceClock(t.store, 10)).toBe(100);
    expect(domainNow(t.store, 1_700_000_000_000)).toBe(1_700_000_100);
    expect(realNow(t.store, 1_700_000_100)).toBe(1_700_000_000);
    expect(advanceClock(t.store, -150)).toBe(-50);
    expect(advanceClock(t.store, 0)).toBe(-50);
    expect(() => advanceClock(t.store, 0.5)).toThrow(RangeError);
    expect(() => advanceClock(t.store, MAX_CLOCK_OFFSET + 100)).toThrow(RangeError);
    expect(getClockOffset(t.store)).toBe(-50);
    expect(setClockOffset(t.store, 0)).toBe(0);
    expect(domainNow(t.store, 1_700_000_000_000)).toBe(1_700_000_000);
    t.store.close();
  });

  it('remembers the offset per store, and never one a rolled-back transaction set', () => {
    const a = openTestStore();
    const b = openTestStore();
    expect(getClockOffset(a.store)).toBe(0); // now remembered for a
    advanceClock(b.store, 30);
    expect(getClockOffset(a.store)).toBe(0);
    expect(getClockOffset(b.store)).toBe(30);
    expect(() =>
      a.store.tx(() => {
        advanceClock(a.store, 500);
        expect(getClockOffset(a.store)).toBe(500); // seen inside the transaction
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(getClockOffset(a.store)).toBe(0);
    expect(domainNow(a.store, 1_700_000_000_000)).toBe(1_700_000_000);
    a.store.close();
    b.store.close();
  });
});

describe('email codes', () => {
  it('spends a matched code once, and not after it expired', () => {
    const now = 1_800_000_000;
    const t = openTestStore(now);
    const user = createUser(t.store, t.app.id, { username: 'u', passwordHash: null }, now);
    const { code } = issueEmailCode(t.store, t.app.id, user.id, now);
    const check = checkEmailCode(t.store, user.id, code, now);
    if (check.result !== 'match') throw new Error(`expected a match, got ${check.result}`);
    expect(spendEmailCode(t.store, check.codeId, now + 600)).toBe(false);
    expect(spendEmailCode(t.store, check.codeId, now)).toBe(true);
    expect(spendEmailCode(t.store, check.codeId, now)).toBe(false);
    expect(checkEmailCode(t.store, user.id, code, now).result).toBe('none');
    t.store.close();
  });
});
