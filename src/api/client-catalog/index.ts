/**
 * The client API catalog: every `type` a kactl command sends, one record each (types.ts says
 * what a record holds), in the order of docs/operations.md's client rows. Plain data plus small
 * lookups; nothing here imports at runtime beyond this folder.
 *
 * The sandbox answers exactly these types (src/server/client/index.ts;
 * test/server/client-registry.test.ts), and docs/operations.md names no other client type
 * (test/unit/docs/operations-table.test.ts).
 */
import { ACCOUNT_OPS } from './account.js';
import { DATA_OPS } from './data.js';
import { LOGIN_OPS } from './logins.js';
import type { ClientApiVersion, ClientEffect, ClientOp } from './types.js';
import type { ExpectedField } from '../answer.js';

export type { ClientApiVersion, ClientEffect, ClientOp, ClientParam, ClientQuirks, SuccessShape } from './types.js';

/** Every record, by its docs/operations.md row (the types beyond the specification last). */
export const CLIENT_CATALOG: readonly ClientOp[] = [...LOGIN_OPS, ...ACCOUNT_OPS, ...DATA_OPS].sort((a, b) => (a.docs.row ?? Infinity) - (b.docs.row ?? Infinity));

const BY_TYPE = new Map(CLIENT_CATALOG.map((op) => [op.type, op]));

/** The record of a wire `type`, exact case. */
export function findClientOp(type: string): ClientOp | undefined {
  return BY_TYPE.get(type);
}

const BY_COMMAND = new Map(CLIENT_CATALOG.filter((op) => op.command !== undefined).map((op) => [op.command!.join(' '), op]));

/**
 * The record a flows step names: by its wire `type` (exact case), else by the kactl command
 * that sends it (`2fa enable`, spaces as typed).
 */
export function resolveClientOp(name: string): ClientOp | undefined {
  return BY_TYPE.get(name) ?? BY_COMMAND.get(name.trim().split(/\s+/).join(' '));
}

/** The kactl command of every record that has one, as typed after `kactl client` (`2fa enable`). */
export function clientCommandNames(): readonly string[] {
  return [...BY_COMMAND.keys()];
}

/** Every wire type the catalog describes. */
export function clientTypes(): readonly string[] {
  return [...BY_TYPE.keys()];
}

/** The version a type goes to: the profile's choice, else the record's, else 1.3. */
export function apiVersionFor(type: string, profileApi: ClientApiVersion | undefined): ClientApiVersion {
  return profileApi ?? findClientOp(type)?.api ?? '1.3';
}

/** Whether a call of `type` may be retried after a dropped connection; a type without a record is a write. */
export function clientEffect(type: string): ClientEffect {
  return findClientOp(type)?.effect ?? 'write';
}

/** The fields a successful answer of `type` must carry (none for a type without a record). */
export function successFields(type: string): readonly ExpectedField[] {
  const success = findClientOp(type)?.success;
  return success !== undefined && 'fields' in success ? success.fields : [];
}

/** The pattern of `success:true` messages that are refusals for `type`, if it has one. */
export function refusalAsSuccess(type: string): RegExp | undefined {
  return findClientOp(type)?.quirks?.refusalAsSuccess;
}

/** Whether an empty, unsigned body is a plain success for `type` (1.2's `log`). */
export function mayAnswerEmpty(type: string): boolean {
  return findClientOp(type)?.quirks?.emptyAnswer === true;
}

/** Whether answers of `type` may be far larger than others. */
export function hasLargeAnswer(type: string): boolean {
  return findClientOp(type)?.quirks?.largeAnswer === true;
}

/**
 * Parameters that are credentials (a password, a license key, a one-time or two-factor code, a
 * login token): a 1.3 call carrying one goes as a POST form body unless the profile chooses GET,
 * so it never lands in a URL, where proxies, server logs and history keep it (docs/design.md,
 * "1.3 method").
 */
export const CREDENTIAL_PARAMS: readonly string[] = ['pass', 'key', 'code', 'tfacode', 'totp', 'token'];

/** Whether the fields of a call carry a credential (a non-empty value under one of CREDENTIAL_PARAMS). */
export function carriesCredential(fields: URLSearchParams): boolean {
  return CREDENTIAL_PARAMS.some((name) => (fields.get(name) ?? '') !== '');
}
