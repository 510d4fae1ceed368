import type { ColumnSpec, SellerOp, WireType } from '../src/api/seller-catalog/index.js';

export const OUTPUT: string;
export function renderSellerTypes(catalog: {
  catalog: readonly SellerOp[];
  wireParamsForType: (type: string) => readonly SellerOp['params'][number][];
  opCommandLine: (op: SellerOp) => string;
  wireTypeOf: (column: ColumnSpec) => WireType;
}): string;
