/**
 * `other-app` (1.3 only): a success signed with the server's own key, as every answer of the
 * hosted service is, but for another application: its `ownerid` is not the one the program
 * sent. One key signs the answers of every app on a service, so anyone with an app of their own
 * there (and a key that is valid in it) gets such answers genuinely signed; a program that checks
 * the signature and not the `ownerid` takes them. A refusal becomes a success, as the other app's
 * owner would arrange (made-up-success.ts).
 */
import type { EncodedResponse } from '../http/encoded-response.js';
import { ed25519Signature } from '../http/signing.js';
import { successBody, successFields } from './made-up-success.js';
import type { FaultEffect, FaultMaterial } from './effect.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * Another owner id of the same form, differing in every character (each moved half the
 * alphabet along), so no one reads it as the program's own; the same each time for one ownerid.
 */
export function otherOwnerid(ownerid: string): string {
  const half = ALPHABET.length / 2;
  const moved = [...ownerid].map((char) => {
    const at = ALPHABET.indexOf(char);
    return at < 0 ? 'x' : ALPHABET[(at + half) % ALPHABET.length]!;
  });
  const other = moved.join('');
  return other === ownerid || other === '' ? 'otherapp00' : other;
}

export function otherAppAnswer(genuine: EncodedResponse & { readonly body: Buffer }, material: FaultMaterial): FaultEffect {
  const ownerid = otherOwnerid(material.request.param('ownerid') ?? '');
  const body = successBody('1.3', successFields(genuine.body, material.request), ownerid);
  const timestamp = String(Math.floor(material.nowMs / 1000));
  const headers = { ...genuine.headers, 'x-signature-timestamp': timestamp, 'x-signature-ed25519': ed25519Signature(material.privateKey, timestamp, body) };
  return { response: { status: 200, headers, body } };
}
