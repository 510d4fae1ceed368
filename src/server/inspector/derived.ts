/**
 * What a record says that is worked out from its stored fields when it is read, never stored:
 * the fault's id and kind (from its label, `#2 forge-signature`), whether the answer was an empty
 * list (a seller list type answered with the catalog's empty message: `success:false` on the
 * wire, 406 in the hosted mode, and no refusal), and whether it counts as a refusal at all.
 */
import type { LoggedRequest } from '../../api/sandbox-admin.js';
import { findSellerOp } from '../../api/seller-catalog/index.js';
import type { RequestRecord } from './records.js';

/** `#2 stale-timestamp 10m` → id 2, kind `stale-timestamp` (the label answer-stage.ts writes). */
export function faultParts(label: string | null): { faultId: number | null; faultKind: string | null } {
  const match = label === null ? null : /^#(\d+) (\S+)/.exec(label);
  return match === null ? { faultId: null, faultKind: null } : { faultId: Number(match[1]), faultKind: match[2]! };
}

/** A seller list answered with its empty message, as the client got it (a fault's answer is not one). */
export function isEmptyList(record: Pick<RequestRecord, 'api' | 'type' | 'success' | 'message' | 'fault'>): boolean {
  if (record.api !== 'seller' || record.success !== false || record.type === null || record.fault !== null) return false;
  const response = findSellerOp(record.type)?.response;
  return response?.kind === 'list' && response.emptyMessage === record.message;
}

/** A refusal the tester's requests met: `success:false`, an HTTP error or no whole answer; never an empty list or kactl's own probe. */
export function isFailed(record: Pick<RequestRecord, 'api' | 'type' | 'success' | 'message' | 'fault' | 'status' | 'delivery' | 'probe'>): boolean {
  if (record.probe) return false;
  if (record.delivery !== 'answer') return true;
  if (record.success !== false && record.status < 400) return false;
  return !isEmptyList(record);
}

/** A record as the admin route and its events send it: the time as ISO 8601, the derived fields added. */
export function recordJson(record: RequestRecord): LoggedRequest {
  const { id, at, ...rest } = record;
  return { id, time: new Date(at).toISOString(), ...rest, ...faultParts(record.fault), empty: isEmptyList(record), failed: isFailed(record) };
}
