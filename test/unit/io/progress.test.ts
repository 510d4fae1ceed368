/** A long job's progress: time left beside the bar on a terminal, a line now and then without one. */
import { describe, expect, it } from 'vitest';
import { createProgress, timeLeftText } from '../../../src/io/progress.js';
import type { IOStreams } from '../../../src/io/streams.js';

function fakeIO(isStderrTTY: boolean) {
  const written: string[] = [];
  const io = { isStderrTTY, columns: 100, err: (text: string) => void written.push(text) } as unknown as IOStreams;
  return { io, written };
}

describe('createProgress with a time left', () => {
  it('without a terminal: a line every few seconds with count and time left (20.6: a restore said nothing for 10 minutes)', () => {
    const { io, written } = fakeIO(false);
    let now = 0;
    const lines: string[] = [];
    const progress = createProgress(io, { total: 100, label: 'Restoring', eta: { now: () => now, estimateMs: 100_000, lineEveryMs: 5000, line: (text) => lines.push(text) } });
    for (let done = 1; done <= 100; done++) {
      now += 1000;
      progress.update(done);
    }
    progress.stop();
    expect(written).toEqual([]);
    expect(lines).toHaveLength(19);
    expect(lines[0]).toBe('Restoring: 5 of 100 done, about 1m 35s left.');
    expect(lines.at(-1)).toBe('Restoring: 95 of 100 done, about 5s left.');
  });

  it('on a terminal: the time left after the counter, from the estimate until the first is done', () => {
    const { io, written } = fakeIO(true);
    let now = 0;
    const progress = createProgress(io, { total: 10, label: 'Restoring', eta: { now: () => now, estimateMs: 600_000 } });
    expect(written.at(-1)).toMatch(/Restoring \[░+\] {2}0\/10 {2}10m left$/);
    now = 30_000;
    progress.update(5);
    expect(written.at(-1)).toMatch(/Restoring \[█+░+\] {2}5\/10 {2}30s left$/);
    progress.stop();
    expect(timeLeftText(400)).toBe('under a second');
    expect(timeLeftText(612_000)).toBe('about 10m 12s');
  });
});

describe('pacingWaits: a pacing wait beside the bar (23.16: `pacing 60.3 s` stood still and looked frozen)', () => {
  it('counts down each second until the wait ends, then clears', async () => {
    const { vi } = await import('vitest');
    const { pacingWaits } = await import('../../../src/io/progress.js');
    vi.useFakeTimers();
    try {
      const { io, written } = fakeIO(true);
      const progress = createProgress(io, { total: 300, label: 'Creating licenses' });
      const onWait = pacingWaits(progress, () => Date.now(), () => undefined);
      const end = onWait(60_300) as () => void;
      expect(written.at(-1)).toMatch(/ {2}pacing 1m 1s$/);
      vi.advanceTimersByTime(1_500);
      expect(written.at(-1)).toMatch(/ {2}pacing 59s$/);
      vi.advanceTimersByTime(30_000);
      expect(written.at(-1)).toMatch(/ {2}pacing 29s$/);
      end();
      expect(written.at(-1)).not.toContain('pacing');
      const count = written.length;
      vi.advanceTimersByTime(5_000);
      expect(written).toHaveLength(count);
      progress.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a bar the wait goes to the one wait line', () => {
    const { io } = fakeIO(false);
    const seen: number[] = [];
    return import('../../../src/io/progress.js').then(({ pacingWaits }) => {
      pacingWaits(createProgress(io, { total: 3, label: 'x' }), () => 0, (ms) => void seen.push(ms))(500);
      expect(seen).toEqual([500]);
    });
  });
});
