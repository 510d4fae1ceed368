/**
 * Schema version 7: an index on when each key was made, per app. `add` counts the keys of the
 * last 24 hours before it makes any (seller/key-quota.ts); without the index that count read
 * every license row of the app, a third of what one `add` cost on a store of a few thousand
 * keys. With it the count reads only the index entries inside the window.
 *
 * Version 6 is another change's; this one assumes nothing of it and only adds an index.
 */
export const SCHEMA_V7 = `
CREATE INDEX licenses_gendate ON licenses (appId, gendate);
`;
