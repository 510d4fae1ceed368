/**
 * What each fault does to an answer: a new encoded answer made from the genuine one (signed
 * already), or an instruction for the socket write (wait, reset, cut short). The answer stage
 * (http/fault-stage.ts) decides which fault applies; this says what it produces (effect.ts: with
 * what, and what comes out).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { EncodedResponse } from '../http/encoded-response.js';
import { ed25519Signature } from '../http/signing.js';
import type { Fault } from './book.js';
import type { FaultEffect, FaultMaterial } from './effect.js';
import { durationMs } from './spec.js';
import { emulatedAnswer } from './emulate.js';
import { futureAnswer } from './future-timestamp.js';
import { otherAppAnswer } from './other-app.js';
import { replayedOfType } from './replay-type.js';
import { tamperedToSuccess } from './tamper-success.js';
import { unsignedAnswer } from './unsigned.js';

/** The HTML a reverse proxy in front of the service shows when the service is down. */
function proxyPage(status: number): Buffer {
  const title = `${status} ${status === 502 ? 'Bad Gateway' : status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Time-out' : 'Error'}`;
  return Buffer.from(`<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`);
}

/** The whole body; a streamed one is read out (and released). */
function wholeBody(response: EncodedResponse): Buffer {
  if (Buffer.isBuffer(response.body)) return response.body;
  const bytes = Buffer.concat([...response.body.chunks()]);
  response.body.finished();
  return bytes;
}

/** The body with `"success":true` and `"success":false` swapped; a body without one gets a byte more. */
export function tamperedBody(body: Buffer): Buffer {
  const text = body.toString('latin1');
  const flipped = text.replace(/"success":(true|false)/, (_all, value: string) => `"success":${value === 'true' ? 'false' : 'true'}`);
  return flipped !== text ? Buffer.from(flipped, 'latin1') : Buffer.concat([body, Buffer.from(' ')]);
}

function released(response: EncodedResponse): void {
  if (!Buffer.isBuffer(response.body)) response.body.finished();
  response.stream?.destroy();
}

export function applyFaultKind(fault: Fault, genuine: EncodedResponse, material: FaultMaterial): FaultEffect {
  switch (fault.kind) {
    case 'forge-signature': {
      const body = wholeBody(genuine);
      if (material.api === '1.3') {
        const timestamp = genuine.headers['x-signature-timestamp'] ?? String(Math.floor(material.nowMs / 1000));
        return { response: { ...genuine, body, headers: { ...genuine.headers, 'x-signature-timestamp': timestamp, 'x-signature-ed25519': ed25519Signature(material.forgeKey, timestamp, body) } } };
      }
      // 1.2: an HMAC of the same body by a key that is not the app's.
      const signature = createHmac('sha256', randomBytes(32)).update(body).digest('hex');
      return { response: { ...genuine, body, headers: { ...genuine.headers, signature } } };
    }
    case 'stale-timestamp': {
      const body = wholeBody(genuine);
      const timestamp = String(Math.floor((material.nowMs - durationMs(fault.arg ?? '0')) / 1000));
      return { response: { ...genuine, body, headers: { ...genuine.headers, 'x-signature-timestamp': timestamp, 'x-signature-ed25519': ed25519Signature(material.privateKey, timestamp, body) } } };
    }
    case 'replay': {
      released(genuine);
      const previous = material.previous!;
      return { response: { status: previous.status, headers: previous.headers, body: previous.body } };
    }
    case 'tamper':
      // The signature headers stay as they were: they sign the body before the change.
      return { response: { ...genuine, body: tamperedBody(wholeBody(genuine)) } };
    case 'status':
      return { response: { ...genuine, status: Number(fault.arg) } };
    case 'html': {
      released(genuine);
      const status = fault.arg === undefined ? 502 : Number(fault.arg);
      return { response: { status, headers: { 'content-type': 'text/html' }, body: proxyPage(status) } };
    }
    case 'text':
      released(genuine);
      return { response: { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: Buffer.from('KeyAuth_Invalid') } };
    case 'delay':
      return { response: genuine, delayMs: durationMs(fault.arg ?? '0') };
    case 'reset':
      released(genuine);
      return { response: genuine, socket: 'reset' };
    case 'truncate':
      return { response: { ...genuine, body: wholeBody(genuine) }, socket: 'truncate' };
    case 'rate-limit':
      released(genuine);
      return { response: material.rateLimited() };
    default:
      return applyAuditKind(fault, genuine, material);
  }
}

/** The kinds of the hostile answers `kactl sandbox audit` sends, each in its own file. */
function applyAuditKind(fault: Fault, genuine: EncodedResponse, material: FaultMaterial): FaultEffect {
  const whole = { ...genuine, body: wholeBody(genuine) };
  switch (fault.kind) {
    case 'emulate':
      return emulatedAnswer(whole, material, 'own-key');
    case 'emulate-secret':
      return emulatedAnswer(whole, material, 'app-secret');
    case 'unsigned':
      return unsignedAnswer(whole);
    case 'other-app':
      return otherAppAnswer(whole, material);
    case 'future-timestamp':
      return futureAnswer(whole, material, fault.arg);
    case 'tamper-success':
      return tamperedToSuccess(whole, material.request);
    case 'replay-type':
      released(genuine);
      return replayedOfType(material.previousOfType!);
    default:
      throw new Error(`No transform for fault kind ${fault.kind}.`);
  }
}
