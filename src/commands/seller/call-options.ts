/** What SellerApi needs to know about an operation beyond its type and parameters. */
import type { ExpectedField } from '../../api/answer.js';
import type { SellerOp } from '../../api/seller-catalog/index.js';

/** The fields a successful answer of `op` must carry, from its response spec. */
export function expectedFields(op: SellerOp): readonly ExpectedField[] {
  const response = op.response;
  if (response.kind === 'list') return [{ name: response.key, kind: 'array' }];
  if (response.kind === 'object') return [{ name: response.key, kind: 'object' }];
  if (response.kind === 'value') return [{ name: response.key, kind: 'present' }];
  return [];
}

/**
 * The answer rules for an operation: the fields a success must carry, and for a list, that a
 * 406 / "No … found" answer is an empty list.
 */
export function responseOptions(op: SellerOp): { expect: readonly ExpectedField[]; list?: { key: string; emptyMessage: string } } {
  const expect = expectedFields(op);
  return op.response.kind === 'list' ? { expect, list: { key: op.response.key, emptyMessage: op.response.emptyMessage } } : { expect };
}
