/**
 * The extension records (src/commands/seller/extensions.ts) are keyed by strings: a record for a
 * type, flag or parameter the catalog no longer has would silently do nothing. This keeps them
 * in step with the catalog.
 */
import { describe, expect, it } from 'vitest';
import { SELLER_CATALOG } from '../../../src/api/seller-catalog/index.js';
import { SELLER_EXTENSIONS } from '../../../src/commands/seller/extensions.js';

describe('seller extension records', () => {
  for (const [type, extension] of Object.entries(SELLER_EXTENSIONS)) {
    it(`${type}: names only what its catalog entry has`, () => {
      const ops = SELLER_CATALOG.filter((op) => op.type === type);
      expect(ops.length, `no catalog operation of type ${type}`).toBeGreaterThan(0);
      const flags = new Set(ops.flatMap((op) => op.params.map((p) => p.flag)));
      const wires = new Set(ops.flatMap((op) => op.params.map((p) => p.wire)));
      const named = [...Object.keys(extension.flagNotes ?? {}), ...Object.keys(extension.flagDescriptions ?? {}), ...(extension.defaulted ?? [])];
      expect(named.filter((flag) => !flags.has(flag))).toEqual([]);
      expect(Object.keys(extension.params ?? {}).filter((wire) => !wires.has(wire))).toEqual([]);
    });
  }

  it('gives the bulk license creator to the one operation that answers with keys', () => {
    const keyOps = SELLER_CATALOG.filter((op) => op.response.kind === 'keys').map((op) => op.type);
    const ownRunners = Object.entries(SELLER_EXTENSIONS).filter(([, e]) => e.run !== undefined).map(([type]) => type);
    expect(ownRunners).toEqual(keyOps);
  });
});
