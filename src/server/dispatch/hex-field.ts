/**
 * A reply field whose value is bytes written as lowercase hex (the client `file` answer's
 * `contents`, docs/protocol/client-api.md §4.17). The encoder writes the hex straight into the
 * body as it is sent instead of building the string: a 70 MB file would otherwise be held as
 * bytes, hex string, JSON string and body buffer at once.
 */
export class HexField {
  /** The bytes in order, as they arrived (never joined into one buffer). */
  readonly chunks: readonly Buffer[];
  readonly byteLength: number;
  /** Called when the answer holding these bytes is sent or abandoned (the download cap's slot); may come twice. */
  readonly onSent: (() => void) | undefined;

  constructor(chunks: readonly Buffer[], onSent?: () => void) {
    this.chunks = chunks;
    this.byteLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    this.onSent = onSent;
  }

  /**
   * The plain string, for any path that serialises the fields itself (small values only). The
   * answer is then made, so the slot is given back too.
   */
  toJSON(): string {
    this.onSent?.();
    return this.chunks.map((chunk) => chunk.toString('hex')).join('');
  }
}
