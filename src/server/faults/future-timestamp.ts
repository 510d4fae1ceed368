/**
 * `future-timestamp DURATION` (1.3 only): the genuine body signed again by the sandbox's own key
 * with a timestamp DURATION ahead, the mirror of `stale-timestamp`. A program that refuses only
 * old answers (`now - timestamp > window`) takes it, and so takes an answer made now and dated
 * ahead for as long as the date says: the freshness window is meant to hold both ways.
 */
import type { EncodedResponse } from '../http/encoded-response.js';
import { ed25519Signature } from '../http/signing.js';
import { durationMs } from './spec.js';
import type { FaultEffect, FaultMaterial } from './effect.js';

export function futureAnswer(genuine: EncodedResponse & { readonly body: Buffer }, material: FaultMaterial, arg: string | undefined): FaultEffect {
  const timestamp = String(Math.floor((material.nowMs + durationMs(arg ?? '0')) / 1000));
  const headers = { ...genuine.headers, 'x-signature-timestamp': timestamp, 'x-signature-ed25519': ed25519Signature(material.privateKey, timestamp, genuine.body) };
  return { response: { ...genuine, headers } };
}
