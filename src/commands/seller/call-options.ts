/** What SellerApi needs to know about an operation beyond its type and parameters. */
import type { SellerOp } from '../../api/seller-catalog/index.js';

/** The list rules for a list operation: a 406 / "No … found" answer is an empty list. */
export function listOption(op: SellerOp): { list: { key: string; emptyMessage: string } } | Record<string, never> {
  return op.response.kind === 'list' ? { list: { key: op.response.key, emptyMessage: op.response.emptyMessage } } : {};
}
