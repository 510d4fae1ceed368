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

  constructor(chunks: readonly Buffer[]) {
    this.chunks = chunks;
    this.byteLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  /** The plain string, for any path that serialises the fields itself (small values only). */
  toJSON(): string {
    return this.chunks.map((chunk) => chunk.toString('hex')).join('');
  }
}
