import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIOStreams } from '../../../src/io/streams.js';
import { createSpinner, formatCountdown } from '../../../src/io/spinner.js';

function streams(tty: boolean) {
  const err = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  err.isTTY = tty;
  err.columns = 60;
  const written: string[] = [];
  err.on('data', (chunk: Buffer) => written.push(chunk.toString()));
  const io = createIOStreams({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: err, env: {} });
  return { io, text: () => written.join('') };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('formatCountdown', () => {
  it('shows minutes and seconds, hours when there are some, never below zero', () => {
    expect(formatCountdown(905)).toBe('15:05');
    expect(formatCountdown(59.2)).toBe('1:00');
    expect(formatCountdown(3725)).toBe('1:02:05');
    expect(formatCountdown(-3)).toBe('0:00');
  });
});

describe('spinner', () => {
  it('draws nothing when stderr is not a terminal, and prints only the final line', async () => {
    const { io, text } = streams(false);
    const spinner = createSpinner(io, () => 'waiting');
    spinner.stop('done');
    await flush();
    expect(text()).toBe('done\n');
  });

  it('redraws its text on every frame (a countdown stays current) and clears the line when stopped', async () => {
    vi.useFakeTimers();
    const { io, text } = streams(true);
    let left = 10;
    const spinner = createSpinner(io, () => `waiting ${left}s left`);
    left = 9;
    vi.advanceTimersByTime(100);
    spinner.stop();
    spinner.stop();
    vi.useRealTimers();
    await flush();
    const out = text();
    expect(out).toContain('waiting 10s left');
    expect(out).toContain('waiting 9s left');
    expect(out.endsWith('\r\u001b[2K')).toBe(true);
    // After stop nothing more is drawn.
    const before = out.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(text().length).toBe(before);
  });

  it('keeps the line within the terminal width', async () => {
    const { io, text } = streams(true);
    const spinner = createSpinner(io, () => 'x'.repeat(200));
    spinner.stop();
    await flush();
    const drawn = text().split('\r\u001b[2K').filter(Boolean);
    expect(Math.max(...drawn.map((line) => line.length))).toBeLessThan(60);
  });
});
