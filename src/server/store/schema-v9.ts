/**
 * Schema version 9: the request inspector's record says what the client saw. `delivery` is null
 * for an answer sent whole, else `reset` (the connection closed before any byte), `truncated`
 * (half the body, then closed) or `abandoned` (the client closed the connection while a delay
 * held the answer back); `probe` is 1 for a request kactl sent on its own account (client init's
 * session check, marked with the `X-Kactl-Probe` header), which `failed=1` leaves out.
 *
 * Assumes version 8's `request_log`; it adds two columns and touches nothing else.
 */
export const SCHEMA_V9 = `
ALTER TABLE request_log ADD COLUMN delivery TEXT;
ALTER TABLE request_log ADD COLUMN probe INTEGER;
`;
