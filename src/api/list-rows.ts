/** The rows of a seller list answer, as the commands, backups and state reads see them. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The rows of a list answer. Not an array means nothing (E's `usersub` answers `subs: "not_found"`
 * with success); plain strings (older `fetchallusernames`) become rows of the first column.
 */
export function listRows(body: Record<string, unknown>, key: string, firstColumn: string): { raw: unknown[]; rows: Record<string, unknown>[] } {
  const value = body[key];
  const raw = Array.isArray(value) ? (value as unknown[]) : [];
  return { raw, rows: raw.map((row) => (isRecord(row) ? row : { [firstColumn]: row })) };
}
