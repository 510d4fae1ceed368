/** Small AbortSignal helpers shared by the transport and the callers. */

/** One signal that aborts when either does (either may be absent). */
export function joinSignals(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}
