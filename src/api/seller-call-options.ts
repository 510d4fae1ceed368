/** What SellerApi needs to know about an operation beyond its type and parameters. */
import type { ExpectedField } from './answer.js';
import type { SellerCallOptions } from './seller-api.js';
import type { SellerOp } from './seller-catalog/index.js';

/** The fields a successful answer of `op` must carry, from its response spec. */
export function expectedFields(op: SellerOp): readonly ExpectedField[] {
  const response = op.response;
  if (response.kind === 'list') return [{ name: response.key, kind: 'array' }];
  if (response.kind === 'object') return [{ name: response.key, kind: 'object' }];
  if (response.kind === 'value') return [{ name: response.key, kind: 'present' }];
  return [];
}

/**
 * The answer rules for an operation: the fields a success must carry, for a list, that a
 * 406 / "No … found" answer is an empty list, and for a value a server may send only inside the
 * message, where to find it there.
 */
export function responseOptions(op: SellerOp): Pick<SellerCallOptions, 'expect' | 'list' | 'valueFromMessage'> {
  const expect = expectedFields(op);
  const response = op.response;
  if (response.kind === 'list') return { expect, list: { key: response.key, emptyMessage: response.emptyMessage } };
  if (response.kind === 'value' && response.fromMessage !== undefined) return { expect, valueFromMessage: { key: response.key, pattern: response.fromMessage } };
  return { expect };
}
