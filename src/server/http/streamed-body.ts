/**
 * A response body produced piece by piece instead of held whole: the JSON text around one
 * `HexField`, with the hex made from the field's bytes a slice at a time. Each pass over
 * `chunks()` yields the same bytes, so the body can be hashed for its signature and then sent
 * while only the raw bytes (once) and one slice of hex are in memory.
 */
import { randomUUID } from 'node:crypto';
import { HexField } from '../dispatch/hex-field.js';

/** Raw bytes hex-encoded per slice: 64 KiB in, 128 KiB of hex out. */
const SLICE_BYTES = 64 * 1024;

export interface StreamedBody {
  readonly length: number;
  /** A fresh pass over the body's bytes. */
  chunks(): Iterable<Buffer>;
  /** Call once when the body has been sent or will not be (frees what it holds). */
  finished(): void;
}

/** The field of `fields` holding a HexField, if any. */
export function hexFieldOf(fields: Readonly<Record<string, unknown>>): HexField | undefined {
  for (const value of Object.values(fields)) if (value instanceof HexField) return value;
  return undefined;
}

/**
 * The body `encode(fields)` would give, with the HexField's hex in place. `encode` sees a unique
 * placeholder string instead of the field; its JSON text (plain ASCII, no escapes) is cut out
 * and the hex goes between the two halves.
 */
export function streamedJsonBody(fields: Readonly<Record<string, unknown>>, field: HexField, encode: (fields: Readonly<Record<string, unknown>>) => string): StreamedBody {
  const placeholder = `hexfield${randomUUID().replace(/-/g, '')}`;
  const text = encode(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value === field ? placeholder : value])));
  const at = text.indexOf(placeholder);
  if (at < 0 || text.indexOf(placeholder, at + 1) >= 0) throw new Error('hex field placeholder not found exactly once');
  const head = Buffer.from(text.slice(0, at), 'utf8');
  const tail = Buffer.from(text.slice(at + placeholder.length), 'utf8');
  let done = false;
  return {
    finished() {
      if (done) return;
      done = true;
      field.onSent?.();
    },
    length: head.length + field.byteLength * 2 + tail.length,
    *chunks() {
      yield head;
      for (const chunk of field.chunks) {
        for (let start = 0; start < chunk.length; start += SLICE_BYTES) {
          const slice = chunk.subarray(start, start + SLICE_BYTES);
          const hex = Buffer.allocUnsafe(slice.length * 2);
          hex.write(slice.toString('hex'), 'latin1');
          yield hex;
        }
      }
      yield tail;
    },
  };
}
