/**
 * Issue 21 item 4, the timing half: a wrong panel password for an existing user took 145 ms (one
 * scrypt) and for an unknown user 7.5 ms (none), so the answer's time told which usernames exist.
 * Now an unknown username is checked against a dummy hash. Asserted on the work done, not on a
 * time: every sign-in attempt runs exactly one scrypt derivation, known user or not (node's
 * scrypt is counted through a pass-through mock).
 */
import type * as Crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { formToken, PanelBrowser, panelSetup } from '../../helpers/panel-browser.js';
import { startTestSandbox } from '../../helpers/sandbox.js';

const derivations = vi.hoisted(() => ({ count: 0 }));

vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof Crypto>();
  const scrypt = ((...args: Parameters<typeof original.scrypt>) => {
    derivations.count++;
    return (original.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof original.scrypt;
  return { ...original, default: { ...original, scrypt }, scrypt };
});

describe('panel sign-in timing', () => {
  it('an unknown username costs the same scrypt as a wrong password for a known one', async () => {
    const sb = await startTestSandbox();
    const base = await panelSetup(sb);
    const browser = new PanelBrowser(sb);
    const attempt = async (username: string): Promise<number> => {
      const form = await browser.get(base);
      const before = derivations.count;
      const answer = await browser.post(`${base}login`, { username, password: 'wrong-password', form_token: formToken(form) });
      expect(answer.text).toContain('The username or password is wrong.');
      return derivations.count - before;
    };
    // The first unknown username also makes the dummy hash once; count from the second on.
    await attempt('warm-up-unknown');
    expect(await attempt('carol')).toBe(1);
    expect(await attempt('nobody-at-all')).toBe(1);
    // A user the seller made without a password (the first login's becomes it) is no shortcut either.
    expect((await sb.seller('adduser', { user: 'nopass', sub: 'default', expiry: '30' })).json.success).toBe(true);
    expect(await attempt('nopass')).toBe(1);
  });
});
