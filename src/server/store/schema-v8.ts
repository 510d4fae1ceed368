/**
 * Schema version 8: the request inspector's record of an answer a fault changed says which fault
 * (`#2 forge-signature`, `#3 delay 2s`), so `kactl sandbox logs` can tell a faulted answer from a
 * genuine one. Null for every other record, the older ones included.
 *
 * Assumes version 6's `request_log`; it adds one column and touches nothing else.
 */
export const SCHEMA_V8 = `
ALTER TABLE request_log ADD COLUMN fault TEXT;
`;
