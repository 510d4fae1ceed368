/**
 * `unsigned`: the genuine answer without its signature headers (1.3: `x-signature-ed25519` and
 * `x-signature-timestamp`; 1.2: `signature`). A program that checks signatures refuses it; one
 * that reads the body alone takes it, and so takes anything anyone sends.
 */
import type { EncodedResponse } from '../http/encoded-response.js';
import { withoutSignature } from './emulate.js';
import type { FaultEffect } from './effect.js';

export function unsignedAnswer(genuine: EncodedResponse): FaultEffect {
  return { response: { ...genuine, headers: withoutSignature(genuine.headers) } };
}
