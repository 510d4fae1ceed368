/**
 * src/api/seller-operations.ts is written from the seller catalog by scripts/seller-types.mjs:
 * it must say what the catalog says, every wire type with its parameters and answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { OUTPUT, renderSellerTypes } from '../../scripts/seller-types.mjs';
import { opCommandLine, SELLER_CATALOG, wireParamsForType, wireTypeOf } from '../../src/api/seller-catalog/index.js';
import type { SellerAnswer, SellerParams, SellerType } from '../../src/api/seller-operations.js';

const root = path.resolve(import.meta.dirname, '..', '..');

describe('the seller operation types', () => {
  it('are what the catalog says (run `npm run generate` after changing the catalog)', () => {
    const expected = renderSellerTypes({ catalog: SELLER_CATALOG, wireParamsForType, opCommandLine, wireTypeOf });
    const actual = fs.readFileSync(path.join(root, OUTPUT), 'utf8');
    expect(actual, `${OUTPUT} is stale: run \`npm run generate\` and commit it`).toBe(expected);
  });

  it('name every wire type of the catalog', () => {
    const text = fs.readFileSync(path.join(root, OUTPUT), 'utf8');
    for (const type of new Set(SELLER_CATALOG.map((op) => op.type))) expect(text).toContain(`readonly ${/^[A-Za-z_$][\w$]*$/.test(type) ? type : JSON.stringify(type)}: {`);
  });

  it('type parameters by the catalog: required, optional, numbers, choices and booleans', () => {
    expectTypeOf<SellerParams<'add'>['expiry']>().toEqualTypeOf<number>();
    expectTypeOf<SellerParams<'add'>>().toHaveProperty('amount').toEqualTypeOf<number | undefined>();
    expectTypeOf<SellerParams<'add'>>().toHaveProperty('character').toEqualTypeOf<'1' | '2' | '3' | undefined>();
    expectTypeOf<SellerParams<'fetchallkeys'>>().toEqualTypeOf<Record<string, never>>();
    expectTypeOf<'nosuchtype'>().not.toMatchTypeOf<SellerType>();
  });

  it('type answers by the response spec: lists, keys, values', () => {
    expectTypeOf<SellerAnswer<'fetchallkeys'>['keys'][number]['key']>().toEqualTypeOf<string>();
    expectTypeOf<SellerAnswer<'add'>['keys']>().toEqualTypeOf<readonly string[] | undefined>();
    expectTypeOf<SellerAnswer<'info'>['status']>().toEqualTypeOf<string>();
    expectTypeOf<SellerAnswer<'countsubs'>['count']>().toEqualTypeOf<string | number>();
    expectTypeOf<SellerAnswer<'upload'>>().toHaveProperty('id').toEqualTypeOf<string | undefined>();
  });
});
