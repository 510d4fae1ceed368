import { describe, expect, it } from 'vitest';
import { renderQr } from '../../../src/io/qr.js';

describe('renderQr', () => {
  it('draws a square of half blocks for the text, different for different texts', async () => {
    const uri = 'otpauth://totp/alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DP&issuer=KeyAuth';
    const drawn = await renderQr(uri);
    const lines = drawn.trimEnd().split('\n');
    expect(drawn.endsWith('\n')).toBe(true);
    expect(lines.length).toBeGreaterThan(10);
    // Every line is the same width, and made of blocks and spaces only.
    expect(new Set(lines.map((l) => [...l].length)).size).toBe(1);
    expect(lines.every((l) => /^[ ▀▄█]+$/.test(l))).toBe(true);
    expect(await renderQr(uri.replace('alice', 'bob'))).not.toBe(drawn);
  });
});
