/** Waits shown without flooding stderr: one line in place on a terminal, one note without. */
import { describe, expect, it } from 'vitest';
import { countdown, createWaitLine } from '../../../src/io/wait-line.js';

function fakeIO(isStderrTTY: boolean) {
  const written: string[] = [];
  return { io: { isStderrTTY, err: (text: string) => void written.push(text) }, written };
}

describe('createWaitLine', () => {
  it('without a terminal: the first wait is one note, later ones say nothing', () => {
    const { io, written } = fakeIO(false);
    const notes: string[] = [];
    const show = createWaitLine(io, (line) => notes.push(line));
    for (let i = 0; i < 15; i++) expect(show(`Pacing: waiting 0.${i} s`)).toBeUndefined();
    expect(notes).toEqual(['Pacing: waiting 0.0 s']);
    expect(written).toEqual([]);
  });

  it('on a terminal: redrawn in place (no newline), cleared when the wait ends', () => {
    const { io, written } = fakeIO(true);
    const show = createWaitLine(io, () => expect.fail('no note on a terminal'));
    for (let i = 0; i < 3; i++) show(`Pacing: waiting 0.${i} s`)?.();
    expect(written.join('')).not.toContain('\n');
    expect(written).toEqual(['\r\u001b[2KPacing: waiting 0.0 s', '\r\u001b[2K', '\r\u001b[2KPacing: waiting 0.1 s', '\r\u001b[2K', '\r\u001b[2KPacing: waiting 0.2 s', '\r\u001b[2K']);
  });
});

describe('countdown', () => {
  it('redraws the seconds left in place and clears the line at the end', async () => {
    const { io, written } = fakeIO(true);
    const slept: number[] = [];
    await countdown(io, 3000, (left) => `again in ${left / 1000} s`, async (ms) => void slept.push(ms));
    expect(slept).toEqual([1000, 1000, 1000]);
    expect(written).toEqual(['\r\u001b[2Kagain in 3 s', '\r\u001b[2Kagain in 2 s', '\r\u001b[2Kagain in 1 s', '\r\u001b[2K']);
  });

  it('clears the line when Ctrl-C ends the wait', async () => {
    const { io, written } = fakeIO(true);
    const interrupted = countdown(io, 5000, () => 'waiting', async () => Promise.reject(new Error('Interrupted.')));
    await expect(interrupted).rejects.toThrow('Interrupted.');
    expect(written.at(-1)).toBe('\r\u001b[2K');
  });
});
