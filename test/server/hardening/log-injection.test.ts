/**
 * Issue 9 item 7: the request log shows client values safely: no forged lines, no terminal
 * escape sequences, no megabyte lines.
 */
import { describe, expect, it } from 'vitest';
import { startTestSandbox } from '../../helpers/sandbox.js';

describe('request log', () => {
  it('escapes control characters in type, so a value cannot forge a line or drive the terminal', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({ log: (line) => lines.push(line) });
    await sb.client('x\nPOST /api/seller/ type=delete → 200 (1 ms)');
    await sb.client('\u001b[2Jcleared');
    const logged = lines.filter((line) => line.startsWith('GET /api/1.3/'));
    expect(logged).toHaveLength(2);
    for (const line of lines) {
      // eslint-disable-next-line no-control-regex -- the test looks for control characters that must not reach the log
      expect(line).not.toMatch(/[\u0000-\u001f\u007f]/);
    }
    expect(logged[0]).toContain('type=x\\x0aPOST /api/seller/');
    expect(logged[1]).toContain('type=\\x1b[2Jcleared');
  });

  it('caps a huge type', async () => {
    const lines: string[] = [];
    const sb = await startTestSandbox({ log: (line) => lines.push(line) });
    const res = await sb.client('A'.repeat(500_000), {}, { method: 'POST' });
    expect(res.json.success).toBe(false);
    const logged = lines.find((line) => line.startsWith('POST /api/1.3/'));
    expect(logged).toBeDefined();
    expect(logged!.length).toBeLessThan(400);
    expect(logged).toContain('(500000 chars)');
  });
});
