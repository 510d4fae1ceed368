/**
 * The scenarios about the customer, the app and the network (scenarios.ts has those about the
 * answers): every answer is genuine, the sandbox's state says no, and a sound program acts on
 * the refusal; or no answer comes at all, and a sound program does not start without one.
 */
import { CUSTOMER_DAYS } from './identity.js';
import type { AuditScenarioDef } from './scenario-types.js';
import { BOTH, newerVersion, OTHER_MACHINE_HWID } from './scenarios.js';

const REASON = 'kactl sandbox audit';

const CUSTOMER_STATES: readonly AuditScenarioDef[] = [
  {
    id: 'unknown-key',
    title: 'an unknown key',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => 'The license key and the user the program is given do not exist in the app.',
    sound: "Refuses, with the server's message.",
    finding: "accepted a key the server does not know: it does not act on the server's refusal",
    arm: async () => ({ credentials: 'unknown' }),
  },
  {
    id: 'expired',
    title: 'an expired key',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => `The customer's key and user logged in once, then the sandbox's clock moved ${CUSTOMER_DAYS + 1} days on: their ${CUSTOMER_DAYS} days are over.`,
    sound: 'Refuses: no active subscription.',
    finding: 'let a customer in whose key has expired',
    arm: async (ctx) => {
      await ctx.primeLogins(ctx.hwid);
      await ctx.advance(`${CUSTOMER_DAYS + 1}d`);
      return { credentials: 'customer' };
    },
  },
  {
    id: 'banned',
    title: 'a banned key',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "The customer's key and user are banned.",
    sound: 'Refuses: the key is banned.',
    finding: 'let a banned customer in',
    arm: async (ctx) => {
      await ctx.seller('ban', { key: ctx.customer.key, reason: REASON });
      await ctx.seller('banuser', { user: ctx.customer.username, reason: REASON });
      return { credentials: 'customer' };
    },
  },
  {
    id: 'other-hwid',
    title: 'a key bound to another machine',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => `The customer's key and user are locked to another machine's HWID (${OTHER_MACHINE_HWID}).`,
    sound: 'Refuses: HWID mismatch.',
    finding: 'let a key bound to another machine in: one key can be shared',
    arm: async (ctx) => {
      await ctx.primeLogins(OTHER_MACHINE_HWID);
      return { credentials: 'customer' };
    },
  },
  {
    id: 'blacklisted-hwid',
    title: 'a blacklisted HWID',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => 'The HWID the program sent in an earlier scenario is on the app\'s blacklist.',
    sound: 'Refuses: the machine is blacklisted.',
    finding: 'let a blacklisted machine in',
    arm: async (ctx) => {
      if (ctx.hwid === undefined) return { notApplicable: 'the program sent no HWID in the scenarios before this one' };
      await ctx.seller('black', { hwid: ctx.hwid });
      return { credentials: 'customer' };
    },
  },
];

const APP_STATES: readonly AuditScenarioDef[] = [
  {
    id: 'new-version',
    title: 'a newer version required',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "The app now requires a newer version than KEYAUTH_VERSION: init answers invalidver.",
    sound: 'Refuses to start (it may offer the download link).',
    finding: 'started although the server requires a newer version',
    arm: async (ctx) => {
      await ctx.seller('updatesettings', { ver: newerVersion(ctx.appVersion) });
      return { credentials: 'customer' };
    },
  },
  {
    id: 'paused',
    title: 'a paused subscription',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "The customer's key and user logged in once, then the default subscription was paused.",
    sound: 'Refuses: the subscription is paused.',
    finding: 'let a customer in whose subscription is paused',
    arm: async (ctx) => {
      await ctx.primeLogins(ctx.hwid);
      await ctx.seller('pausesub', { subscription: 'default' });
      return { credentials: 'customer' };
    },
  },
  {
    id: 'app-disabled',
    title: 'a disabled application',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => 'The application is disabled: init is refused.',
    sound: 'Refuses to start.',
    finding: 'started although the application is disabled',
    arm: async (ctx) => {
      await ctx.seller('updatesettings', { enabled: 'false' });
      return { credentials: 'customer' };
    },
  },
];

const NETWORK: readonly AuditScenarioDef[] = [
  {
    id: 'unreachable',
    title: 'the server unreachable',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => 'Nothing listens at KEYAUTH_URL (a closed port on 127.0.0.1): every connection is refused.',
    sound: 'Refuses: no answer is no license.',
    finding: 'started without reaching the server: it fails open, so blocking the server unlocks it',
    arm: async (ctx) => ({ credentials: 'customer', url: await ctx.closedUrl() }),
  },
  {
    id: 'html',
    title: 'an HTML error page',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "Every answer is a proxy's HTML error page (502 Bad Gateway) in place of the JSON (fault html).",
    sound: 'Refuses: the page is no answer.',
    finding: 'started on an HTML error page in place of an answer',
    arm: async (ctx) => {
      await ctx.fault('html');
      return { credentials: 'customer' };
    },
  },
  {
    id: 'truncated',
    title: 'a truncated answer',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => 'Every answer is cut off halfway through its body (fault truncate).',
    sound: 'Refuses: half an answer is no answer.',
    finding: 'started on a cut-off answer',
    arm: async (ctx) => {
      await ctx.fault('truncate');
      return { credentials: 'customer' };
    },
  },
];

export const STATE_SCENARIOS: readonly AuditScenarioDef[] = [...CUSTOMER_STATES, ...APP_STATES, ...NETWORK];
