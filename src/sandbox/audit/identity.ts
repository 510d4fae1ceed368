/**
 * Who the program logs in as during an audit: the audit's customer, made in the sandbox after
 * the tester's seed (a fresh license key of level 1 for 30 days, and a user of the `default`
 * subscription for 30 days), or credentials the sandbox does not know. Every scenario starts
 * from the state right after this (a snapshot), so the key is fresh in each.
 */
import { randomBytes } from 'node:crypto';
import { UsageError } from '../../api/errors.js';
import type { KactlSeller } from '../../api/kactl-seller.js';

export interface AuditIdentity {
  readonly key: string;
  readonly username: string;
  readonly password: string;
}

/** The days the customer's key and subscription last; the `expired` scenario moves past them. */
export const CUSTOMER_DAYS = 30;

/** Credentials no sandbox has: a key and a user that were never made. */
export const UNKNOWN_IDENTITY: AuditIdentity = {
  key: 'UNKNOWN-KEY-0000-0000-0000',
  username: 'audit-unknown-user',
  password: 'audit-unknown-pass-0000',
};

/** Makes the customer in the seeded sandbox. */
export async function createCustomer(seller: KactlSeller): Promise<AuditIdentity> {
  const suffix = randomBytes(4).toString('hex');
  const username = `audit-customer-${suffix}`;
  const password = `audit-pass-${randomBytes(8).toString('hex')}`;
  try {
    const made = await seller.raw('add', { expiry: CUSTOMER_DAYS, amount: 1, level: 1, mask: 'AUDIT-******-******-******', character: 2, note: 'kactl sandbox audit' });
    const key = keyOf(made);
    await seller.raw('adduser', { user: username, pass: password, sub: 'default', expiry: CUSTOMER_DAYS });
    return { key, username, password };
  } catch (error) {
    throw new UsageError(
      `The audit could not make its test customer in the seeded sandbox (${(error as Error).message.replace(/\.$/, '')}): it needs the app's "default" subscription at level 1, as a new sandbox has.`,
      { cause: error },
    );
  }
}

function keyOf(answer: Record<string, unknown>): string {
  const key: unknown = answer.key ?? (Array.isArray(answer.keys) ? (answer.keys as unknown[])[0] : undefined);
  if (typeof key !== 'string' || key === '') throw new Error('the sandbox made no key');
  return key;
}
