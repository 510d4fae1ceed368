/**
 * `emulate` and `emulate-secret`: the sandbox answers as a fake server ("emulator") does. Every
 * client answer is a success (a genuine success as it was, a refusal replaced by the success a
 * valid key gets, made-up-success.ts), signed as that fake server can sign it:
 *
 * - `emulate`: with a key that is not the server's (1.3: another Ed25519 key; 1.2: an HMAC by a
 *   random key), as anyone can. A program that checks signatures refuses every answer.
 * - `emulate-secret` (1.2 only): with the app's own secret (and the session's enckey after
 *   `init`), as emulators that read the secret out of the program's memory do. Every 1.2 program
 *   accepts these answers: the secret that signs them is in the program. Only 1.3's public-key
 *   signatures resist this.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { EncodedResponse } from '../http/encoded-response.js';
import { ed25519Signature, NO_ENCRYPTION_KEY } from '../http/signing.js';
import { parsedBody, successBody, successFields } from './made-up-success.js';
import type { FaultEffect, FaultMaterial } from './effect.js';

/** How the fake server signs: with a key of its own, or with the app's secret it read out of the program. */
export type EmulatorSigner = 'own-key' | 'app-secret';

/** The headers of a 1.3 or 1.2 answer without their signature. */
export function withoutSignature(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { 'x-signature-ed25519': _ed, 'x-signature-timestamp': _ts, signature: _hmac, ...rest } = headers;
  return rest;
}

/** The body a fake server sends: a genuine success as it is, else a success made up for the request. */
export function emulatedBody(genuine: Buffer, material: FaultMaterial): Buffer {
  if (parsedBody(genuine)?.success === true) return genuine;
  return successBody(material.request.api, successFields(genuine, material.request), material.request.param('ownerid') ?? null);
}

function hmacHeader(body: Buffer, material: FaultMaterial, signer: EmulatorSigner): string | undefined {
  if (signer === 'own-key') return createHmac('sha256', randomBytes(32)).update(body).digest('hex');
  const key = material.appHmacKey();
  if (key === undefined) return undefined;
  return key === null ? NO_ENCRYPTION_KEY : createHmac('sha256', key).update(body).digest('hex');
}

/** `genuine` with its whole body; the fake server's answer in its place. */
export function emulatedAnswer(genuine: EncodedResponse & { readonly body: Buffer }, material: FaultMaterial, signer: EmulatorSigner): FaultEffect {
  const body = emulatedBody(genuine.body, material);
  const headers = withoutSignature(genuine.headers);
  const status = body === genuine.body ? genuine.status : 200;
  if (material.request.api === '1.3') {
    const timestamp = String(Math.floor(material.nowMs / 1000));
    return { response: { status, headers: { ...headers, 'x-signature-timestamp': timestamp, 'x-signature-ed25519': ed25519Signature(material.forgeKey, timestamp, body) }, body } };
  }
  const signature = hmacHeader(body, material, signer);
  return { response: { status, headers: signature === undefined ? headers : { ...headers, signature }, body } };
}
