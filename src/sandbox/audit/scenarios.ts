/**
 * The scenarios of `kactl sandbox audit`, as data, in the order they run (and `--list` shows
 * them; catalog.ts joins these with scenarios-states.ts). Each asks one question a tester brings: does the program start for a paying customer,
 * and does it refuse what it must (a fake server, a doctored answer, an expired, banned or
 * foreign key, a server it cannot reach)?
 *
 * Every hostile answer is one a naive program would take: the fake server's answers say
 * success (the refusal of an unknown key turned into a login), the tampered one turns a refusal
 * into a success after signing, the stale one is a real login success recorded minutes ago (the
 * sandbox's clock is turned back for that login), the future one a real success signed minutes
 * ahead. A refused answer a naive program also refuses would prove nothing.
 */
import { CUSTOMER_DAYS } from './identity.js';
import type { ArmContext, AuditApi, AuditScenarioDef } from './scenario-types.js';

/** How far the stale and future answers are dated from now. */
export const SKEW = '10m';
const SKEW_MS = 10 * 60_000;
const SKEW_WORDS = '10 minutes';
/** The HWID another machine has, for `other-hwid` (long enough for any app's minimum). */
export const OTHER_MACHINE_HWID = 'AUDIT-OTHER-MACHINE-0000-0000-0000';
/** The types a program logs in with; the replays hit these. */
export const LOGIN_TYPES = ['license', 'login', 'register', 'loginEmail'] as const;

export const BOTH: readonly AuditApi[] = ['1.3', '1.2'];
const ONLY_13: readonly AuditApi[] = ['1.3'];

const signedBy = (api: AuditApi): string => (api === '1.3' ? 'signed with another Ed25519 key' : 'with an HMAC by another secret');

/** Bans the customer's key and user: the genuine answer to their login is now a refusal. */
async function banCustomer(ctx: ArmContext, scenario: string): Promise<void> {
  await ctx.seller('ban', { key: ctx.customer.key, reason: `kactl sandbox audit: ${scenario}` });
  await ctx.seller('banuser', { user: ctx.customer.username, reason: `kactl sandbox audit: ${scenario}` });
}

/** The version the `new-version` scenario requires: the next major one. */
export function newerVersion(version: string): string {
  const major = /^(\d+)/.exec(version);
  return major === null ? `${version}.1` : `${Number(major[1]) + 1}.0`;
}

const ACCEPTED: readonly AuditScenarioDef[] = [
  {
    id: 'valid-license',
    title: 'a fresh, valid license key',
    expected: 'accepted',
    graded: true,
    apis: BOTH,
    sandbox: () => `The customer's license key is new and valid (${CUSTOMER_DAYS} days, level 1), and so is the user; every answer is genuine.`,
    sound: 'Starts.',
    finding: 'refused a paying customer: a fresh, valid license key did not start it (does it read the KEYAUTH_* variables?)',
    arm: async () => ({ credentials: 'customer' }),
  },
  {
    id: 'valid-login',
    title: 'a valid username and password',
    expected: 'accepted',
    graded: true,
    apis: BOTH,
    sandbox: () => `The customer's user (KEYAUTH_USERNAME, KEYAUTH_PASSWORD) has ${CUSTOMER_DAYS} days of the default subscription; every answer is genuine.`,
    sound: 'Starts.',
    finding: "refused a paying customer's username and password",
    arm: async () => ({ credentials: 'customer' }),
    appliesAfter: (facts) => (facts.types.includes('login') ? undefined : 'the program made no username and password login (no login request)'),
  },
];

const FORGERIES: readonly AuditScenarioDef[] = [
  {
    id: 'forged',
    title: 'a fake server (emulator)',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: (api) => `Answers as a fake server does: every answer a success, the unknown key's login included, ${signedBy(api)} (fault emulate).`,
    sound: "Refuses: the signature does not check out with the server's public key (1.2: the app secret).",
    finding: 'accepted an answer signed by another server: anyone can write a fake server for this program',
    arm: async (ctx) => {
      await ctx.fault('emulate');
      return { credentials: 'unknown' };
    },
  },
  {
    id: 'unsigned',
    title: 'an unsigned answer',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "The customer's key is valid; every answer comes without its signature headers (fault unsigned).",
    sound: 'Refuses: an answer without a signature may come from anyone.',
    finding: 'accepted answers with no signature: anyone can write a fake server for this program',
    arm: async (ctx) => {
      await ctx.fault('unsigned');
      return { credentials: 'customer' };
    },
  },
  {
    id: 'tampered',
    title: 'a refusal turned into a success after signing',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "Turns the unknown key's refusal into a login success after it was signed; the signature is the refusal's (fault tamper-success).",
    sound: 'Refuses: the signature does not match the body it reads.',
    finding: 'accepted an answer changed after it was signed: anything between it and the server can turn a refusal into a success',
    arm: async (ctx) => {
      await ctx.fault('tamper-success');
      return { credentials: 'unknown' };
    },
  },
  {
    id: 'other-app',
    title: 'an answer for another application',
    expected: 'refused',
    graded: true,
    apis: ONLY_13,
    sandbox: () => "Answers every request with a success signed by the server's own key, but for another application's ownerid, the unknown key's login included (fault other-app).",
    sound: "Refuses: the answer's ownerid is not its own.",
    finding: 'accepted an answer for another application: anyone with an app on the same service can answer for this one',
    arm: async (ctx) => {
      await ctx.fault('other-app');
      return { credentials: 'unknown' };
    },
  },
];

const REPLAYS_AND_TIME: readonly AuditScenarioDef[] = [
  {
    id: 'stale',
    title: `a real login from ${SKEW_WORDS} ago, replayed`,
    expected: 'refused',
    graded: true,
    apis: ONLY_13,
    sandbox: () =>
      `The customer logged in ${SKEW_WORDS} ago (a real success, signed then); the key and user have been banned since, and the program's login answer is that recorded success, byte for byte (fault replay-type).`,
    sound: 'Refuses: its timestamp is outside the freshness window (seconds to a minute).',
    finding: `accepted a login answer signed ${SKEW_WORDS} ago: a recorded success can be played back to it long after`,
    arm: async (ctx) => {
      // Armed first: the sandbox remembers answers only while a fault that replays them is held,
      // and the recorded login finds nothing earlier to replay, so it gets its genuine answer.
      await ctx.fault('replay-type', { types: LOGIN_TYPES });
      await ctx.primeLogins(ctx.hwid, { agoMs: SKEW_MS });
      await banCustomer(ctx, 'stale');
      return { credentials: 'customer' };
    },
  },
  {
    id: 'future',
    title: `an answer dated ${SKEW_WORDS} ahead`,
    expected: 'refused',
    graded: true,
    apis: ONLY_13,
    sandbox: () => `The customer's key is valid; every answer is a real success signed with a timestamp ${SKEW_WORDS} in the future (fault future-timestamp ${SKEW}).`,
    sound: 'Refuses: the window holds both ways, and a timestamp ahead of its clock is outside it.',
    finding: `accepted an answer dated ${SKEW_WORDS} ahead: an answer made now stays usable for as long as its date says`,
    arm: async (ctx) => {
      await ctx.fault('future-timestamp', { arg: SKEW });
      return { credentials: 'customer' };
    },
  },
  {
    id: 'replayed',
    title: 'an answer it got before in the same run',
    expected: 'refused',
    graded: true,
    apis: BOTH,
    sandbox: () => "Sends, in place of the unknown key's login answer, the answer the program got just before in the same run (its init success), byte for byte: genuinely signed and seconds old (fault replay).",
    sound: 'Refuses: it has already seen that answer (its signature and nonce) in this run.',
    finding: 'accepted the same signed answer twice in one run: a recorded success can stand in for a refusal',
    arm: async (ctx) => {
      await ctx.fault('replay', { types: LOGIN_TYPES });
      return { credentials: 'unknown' };
    },
  },
  {
    id: 'replayed-fresh',
    title: "an earlier run's login, replayed while fresh",
    expected: 'refused',
    graded: false,
    apis: BOTH,
    sandbox: () => "The customer logs in once (a real success), then the key and user are banned; the program's login answer is that earlier success, seconds old, byte for byte (fault replay-type).",
    sound: 'Refuses only if it remembers the answers of earlier runs: the protocol binds no answer to its request.',
    finding: "accepted an earlier run's login answer after the key was banned",
    informational:
      "A 1.3 answer is bound to no request or session, so inside the freshness window a replay across two runs cannot be told from a fresh answer by a program that keeps no memory between runs: shown, not graded. (A 1.2 answer is signed with its session's enckey, so a program that sends a new one at each init refuses it.)",
    arm: async (ctx) => {
      await ctx.fault('replay-type', { types: LOGIN_TYPES });
      await ctx.primeLogins(ctx.hwid);
      await banCustomer(ctx, 'replayed-fresh');
      return { credentials: 'customer' };
    },
  },
  {
    id: 'emulated-secret',
    title: 'a fake server with the app secret (1.2)',
    expected: 'refused',
    graded: false,
    apis: ['1.2'],
    sandbox: () => "Answers as an emulator that read the app secret out of the program's memory: every answer a success, the unknown key's login included, with a correct HMAC (fault emulate-secret).",
    sound: 'Cannot refuse them: the secret that signs them is inside the program.',
    finding: 'accepted a fake server that knows the app secret',
    informational:
      "Every 1.2 program accepts these answers: whoever has the program has its secret, and public emulators read it out of memory. Only 1.3's public-key signatures resist this: move the program to 1.3.",
    arm: async (ctx) => {
      await ctx.fault('emulate-secret');
      return { credentials: 'unknown' };
    },
  },
];

/** The scenarios about the answers themselves; scenarios-states.ts has those about the customer, the app and the network. */
export const ANSWER_SCENARIOS: readonly AuditScenarioDef[] = [...ACCEPTED, ...FORGERIES, ...REPLAYS_AND_TIME];
