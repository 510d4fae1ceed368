/**
 * `replay-type`: in place of this answer, the last signed answer of the same API type this client
 * got (last-answers.ts: a client is the IP, API version and app), byte for byte. Where `replay`
 * sends the previous answer whatever its type (the same run's `init` answer in place of its
 * `license`), this one sends an earlier run's `license` success in place of this run's: a
 * recorded login played back while it is still fresh. A program that keeps no memory between
 * runs cannot tell it from a fresh answer; the fault shows whether a program does. No earlier
 * answer of the type: the fault does not fire.
 */
import type { RememberedAnswer } from './last-answers.js';
import type { FaultEffect } from './effect.js';

export function replayedOfType(previous: RememberedAnswer): FaultEffect {
  return { response: { status: previous.status, headers: previous.headers, body: previous.body } };
}
