/**
 * What an audit scenario is (scenarios.ts lists them): the state the sandbox is put in or the
 * answers it sends, what a sound program does, what the report says when a program does
 * otherwise, and how the sandbox is armed for it (through its own seller API, clock, faults and
 * a client of its own, as a tester would do by hand).
 */
import type { AuditIdentity } from './identity.js';

export type AuditApi = '1.3' | '1.2';


/** How the sandbox is armed for a scenario, given by the runner (runner.ts). */
export interface ArmContext {
  readonly api: AuditApi;
  /** The audit's customer: a fresh license key and a user, both valid (identity.ts). */
  readonly customer: AuditIdentity;
  /** The HWID the program sent in an earlier scenario, if it sent one. */
  readonly hwid: string | undefined;
  /** The app's version (KEYAUTH_VERSION). */
  readonly appVersion: string;
  /** Adds a fault on the audit's client API (`api`), every type unless `types` says. */
  fault(kind: string, extra?: { readonly arg?: string; readonly types?: readonly string[] }): Promise<void>;
  /** A seller call of the sandbox's app; its refusal stops the scenario with the server's message. */
  seller(type: string, params: Readonly<Record<string, string | number>>): Promise<void>;
  /**
   * The customer's key and user log in once (init, license, init, login), as an earlier run
   * would; `agoMs` back in time (the sandbox's clock, signatures included, turned back for them).
   */
  primeLogins(hwid: string | undefined, options?: { readonly agoMs?: number }): Promise<void>;
  /** Moves the sandbox's domain clock (`31d`). */
  advance(step: string): Promise<void>;
  /** The API URL of a port on 127.0.0.1 where nothing listens. */
  closedUrl(): Promise<string>;
}

/** Which credentials the program gets. */
export type CredentialsGiven = 'customer' | 'unknown';

export type ArmResult =
  | { readonly credentials: CredentialsGiven; readonly url?: string }
  /** The scenario cannot apply to this program; why, in one sentence. */
  | { readonly notApplicable: string };

/** What the runner learned from a scenario's run, for scenarios that apply only to some programs. */
export interface RunFacts {
  /** The client API types the program sent, in order. */
  readonly types: readonly string[];
}

export interface AuditScenarioDef {
  readonly id: string;
  readonly title: string;
  /** What a sound program does with it: start, or refuse. */
  readonly expected: 'accepted' | 'refused';
  /** False: the result is shown and not graded (`informational` says why). */
  readonly graded: boolean;
  readonly apis: readonly AuditApi[];
  /** What the sandbox does, in words, for an API. */
  readonly sandbox: (api: AuditApi) => string;
  /** What a sound program does. */
  readonly sound: string;
  /** When a program does otherwise: the finding, in plain words. */
  readonly finding: string;
  /** Why the scenario is not graded. */
  readonly informational?: string;
  readonly arm: (ctx: ArmContext) => Promise<ArmResult>;
  /** After the run: why the scenario did not apply to this program, if it did not. */
  readonly appliesAfter?: (facts: RunFacts) => string | undefined;
}
