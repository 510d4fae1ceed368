/**
 * Writing an answer (src/server/http/write-answer.ts): a request without a body (a GET, most
 * requests) is answered at once in one `end`, without waiting for its end through the stream
 * machinery; a body still arriving is read and dropped before the answer ends.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { writeAnswer } from '../../src/server/http/write-answer.js';
import { openStore } from '../../src/server/store/store.js';

/** A request still being parsed (node marks it complete only after the handler returns), and a response that records what was done to it. */
function exchange(headers: Record<string, string>): { req: IncomingMessage; res: ServerResponse; calls: string[] } {
  const calls: string[] = [];
  const req = Object.assign(new EventEmitter(), { complete: false, headers, resume: () => calls.push('resume') });
  const res = {
    headersSent: false,
    writeHead: () => calls.push('writeHead'),
    write: () => calls.push('write'),
    end: (body?: Buffer) => calls.push(body === undefined ? 'end' : `end ${body.toString()}`),
  };
  return { req: req as unknown as IncomingMessage, res: res as unknown as ServerResponse, calls };
}

const deps = { store: openStore(':memory:'), clock: () => Date.now(), origins: { corsHeaders: () => ({}) }, closing: () => false };
const answer = { status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"success":true}') };

describe('writeAnswer', () => {
  it('ends a request without a body at once, with the answer in the same call, reading nothing', () => {
    const { req, res, calls } = exchange({ host: 'x' });
    writeAnswer(deps, req, res, answer, false);
    expect(calls).toEqual(['writeHead', 'end {"success":true}']);
  });

  it('reads and drops a body still arriving, and ends the answer after it', () => {
    const { req, res, calls } = exchange({ 'content-length': '10' });
    writeAnswer(deps, req, res, answer, true);
    expect(calls).toEqual(['writeHead', 'write', 'resume']);
    req.emit('end');
    expect(calls).toEqual(['writeHead', 'write', 'resume', 'end']);
  });
});
