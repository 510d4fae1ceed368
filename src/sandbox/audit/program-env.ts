/**
 * The environment a program runs in under audit: the caller's, plus the sandbox and the test
 * identity under names no kactl variable uses, so a program (or its test build) reads them
 * whatever library it is built on (`kactl sandbox connect <sdk> --audit` prints how):
 *
 *   KEYAUTH_URL          the client API's URL for the audit's API (`http://127.0.0.1:PORT/api/1.3/`)
 *   KEYAUTH_NAME, KEYAUTH_OWNERID, KEYAUTH_VERSION   the app
 *   KEYAUTH_PUBLIC_KEY   the sandbox's Ed25519 key (64 hex) that signs 1.3 answers
 *   KEYAUTH_SECRET       the app secret (1.2 HMACs)
 *   KEYAUTH_LICENSE      the license key to log in with
 *   KEYAUTH_USERNAME, KEYAUTH_PASSWORD   the user to log in as, for programs that ask for one
 *   KACTL_AUDIT_SCENARIO the scenario's id, for a program that logs what it was run for
 */
import type { AuditIdentity } from './identity.js';

/** Every variable the audit sets, in the order above. */
export const AUDIT_VARIABLES = [
  'KEYAUTH_URL',
  'KEYAUTH_NAME',
  'KEYAUTH_OWNERID',
  'KEYAUTH_VERSION',
  'KEYAUTH_PUBLIC_KEY',
  'KEYAUTH_SECRET',
  'KEYAUTH_LICENSE',
  'KEYAUTH_USERNAME',
  'KEYAUTH_PASSWORD',
  'KACTL_AUDIT_SCENARIO',
] as const;

export interface ProgramSandbox {
  readonly url: string;
  readonly app: { readonly name: string; readonly ownerid: string; readonly version: string; readonly secret: string };
  readonly publicKey: string;
}

export function programEnv(base: Readonly<Record<string, string>>, sandbox: ProgramSandbox, identity: AuditIdentity, scenario: string): Record<string, string> {
  return {
    ...base,
    KEYAUTH_URL: sandbox.url,
    KEYAUTH_NAME: sandbox.app.name,
    KEYAUTH_OWNERID: sandbox.app.ownerid,
    KEYAUTH_VERSION: sandbox.app.version,
    KEYAUTH_PUBLIC_KEY: sandbox.publicKey,
    KEYAUTH_SECRET: sandbox.app.secret,
    KEYAUTH_LICENSE: identity.key,
    KEYAUTH_USERNAME: identity.username,
    KEYAUTH_PASSWORD: identity.password,
    KACTL_AUDIT_SCENARIO: scenario,
  };
}
