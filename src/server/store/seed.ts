/**
 * First-start seeding (docs/contracts.md, "Sandbox start"): on an empty store, one application with
 * the real service's defaults, its owner account, a 32-character seller key and the `default`
 * subscription at level 1.
 *
 * On a store that already holds an application, the options are checked against the first
 * (seeded) application instead: a value that differs is an error, never a silent rewrite, so a
 * script that pins `--ownerid X` learns at once that the data file belongs to another app.
 */
import { createApp, listApps } from '../domain/apps.js';
import { createAccount } from '../domain/accounts.js';
import { randomHex, randomString } from '../domain/random.js';
import type { AppRow } from '../domain/rows.js';
import type { Store } from './store.js';
import { SandboxConfigError, type SandboxOptionName } from './config-error.js';

export interface SeedOptions {
  /** Default `sandbox-app`. */
  readonly appName?: string | undefined;
  /** Exactly 10 letters or digits; default random. */
  readonly ownerid?: string | undefined;
  /** Exactly 32 letters or digits; default 32 random hex characters. */
  readonly sellerKey?: string | undefined;
}

export { SandboxConfigError };
export type { OptionSpelling, SandboxOptionName } from './config-error.js';

export const DEFAULT_APP_NAME = 'sandbox-app';
/** The owner account of the seeded app; it names the customer panel link. */
export const DEFAULT_OWNER = 'sandbox-owner';

export function validateSeedOptions(options: SeedOptions): void {
  const { appName, ownerid, sellerKey } = options;
  if (appName !== undefined && (appName.length === 0 || appName.length > 40 || appName.trim() !== appName || /[<>]/.test(appName))) {
    throw new SandboxConfigError((name) => `${name('appName')} must be 1 to 40 characters, without surrounding spaces or < >.`, 'appName');
  }
  if (ownerid !== undefined && !/^[A-Za-z0-9]{10}$/.test(ownerid)) {
    throw new SandboxConfigError((name) => `${name('ownerid')} must be exactly 10 letters or digits.`, 'ownerid');
  }
  if (sellerKey !== undefined && !/^[A-Za-z0-9]{32}$/.test(sellerKey)) {
    throw new SandboxConfigError((name) => `${name('sellerKey')} must be exactly 32 letters or digits.`, 'sellerKey');
  }
}

/** Seeds an empty store, or checks the options against the store's first app. Returns that app. */
export function seedStore(store: Store, options: SeedOptions, now: number): AppRow {
  validateSeedOptions(options);
  return store.tx(() => {
    const existing = listApps(store)[0];
    if (existing !== undefined) {
      checkAgainst(existing, options, store.location);
      return existing;
    }
    createAccount(store, { username: DEFAULT_OWNER, role: 'seller' }, now);
    return createApp(store, {
      name: options.appName ?? DEFAULT_APP_NAME,
      ownerid: options.ownerid ?? randomString(10),
      secret: randomHex(32),
      sellerKey: options.sellerKey ?? randomHex(16),
      owner: DEFAULT_OWNER,
      version: '1.0',
    }, now);
  });
}

function checkAgainst(app: AppRow, options: SeedOptions, location: string): void {
  const clash = (option: SandboxOptionName, wanted: string | undefined, actual: string, shown: (v: string) => string): void => {
    if (wanted !== undefined && wanted !== actual) {
      throw new SandboxConfigError(
        (name) =>
          `The store at ${location} already holds application "${app.name}" with another ${name(option).replace(/^--/, '')} (${shown(actual)}); ` +
          `drop ${name(option)} or use another ${name('data')} file.`,
        option,
      );
    }
  };
  clash('appName', options.appName, app.name, (v) => `"${v}"`);
  clash('ownerid', options.ownerid, app.ownerid, (v) => v);
  // Never print a seller key in full.
  clash('sellerKey', options.sellerKey, app.sellerKey, (v) => `${v.slice(0, 4)}…`);
}
