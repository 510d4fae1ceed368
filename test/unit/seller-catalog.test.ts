/**
 * Invariants of the seller catalog. Each check is a function over a list of operations, run
 * against the real catalog (no problems) and against deliberately broken copies (a problem),
 * so no check can pass by accident. The expected facts are hard-coded from docs/protocol/seller-api.md §2/§3:
 * CI has only this repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SELLER_CATALOG,
  SELLER_GROUPS,
  commandsForGroup,
  findOpByPath,
  findSellerOp,
  fixedParamsFor,
  opKey,
  opsForGroup,
  reservedPositionalValues,
  wireParamsForType,
} from '../../src/api/seller-catalog/index.js';
import type { ParamSpec, SellerGroup, SellerOp } from '../../src/api/seller-catalog/types.js';
import { col } from '../../src/api/seller-catalog/columns.js';
import { foreignImports, itHoldsItsChecks } from '../helpers/catalog-checks.js';
import type { Broken, Check as CatalogCheck } from '../helpers/catalog-checks.js';

type Ops = readonly SellerOp[];
type Check = CatalogCheck<SellerOp>;

const GROUPS: readonly SellerGroup[] = [
  'app', 'licenses', 'users', 'subs', 'sessions', 'vars', 'uservars', 'webhooks',
  'files', 'blacklists', 'whitelists', 'chats', 'logs', 'loader', 'team',
];

/**
 * Every type of the summary table (§2): its group here and its wire parameters
 * (`*` = required by the server), for the first entry of the type plus what variants add.
 */
const EXPECTED: Readonly<Record<string, readonly [SellerGroup, string]>> = {
  addhash: ['app', 'hash*'],
  updatesettings: [
    'app',
    'enabled hwidcheck ver download webhook resellerstore appdisabled usernametaken keynotfound keyused nosublevel ' +
      'usernamenotfound passmismatch hwidmismatch noactivesubs hwidblacked sellixsecret ' +
      // Sandbox only (the real service sets these on its dashboard).
      'hashcheck tokensystem addtoken bantoken banreason unbantoken deltoken forcehwid minhwid minusernamelength vpnblock vpnranges blockleakedpasswords ' +
      'forceencryption webdownload cooldown shoppysecret sellappsecret sellixdayproduct sellixweekproduct sellixmonthproduct sellixlifetimeproduct shoppydayproduct shoppyweekproduct shoppymonthproduct shoppylifetimeproduct sellappdayproduct sellappweekproduct sellappmonthproduct sellapplifetimeproduct ' +
      'pausedsub vpnblocked keybanned userbanned sessionunauthed hashcheckfail loggedInMsg pausedApp unTooShort pwLeaked ' +
      'chatHitDelay tokeninvalid',
  ],
  appdetails: ['app', ''],
  getsettings: ['app', ''],
  stats: ['app', ''],
  pauseapp: ['app', ''],
  resethash: ['app', ''],
  unpauseapp: ['app', ''],
  setseller: ['app', ''],
  black: ['blacklists', 'ip hwid'],
  delblack: ['blacklists', 'data* blacktype*'],
  delblacks: ['blacklists', ''],
  fetchallblacks: ['blacklists', ''],
  addchannel: ['chats', 'name* delay*'],
  delchannel: ['chats', 'name*'],
  editchan: ['chats', 'name* delay'],
  fetchallchats: ['chats', ''],
  clearchannel: ['chats', 'name*'],
  muteuser: ['chats', 'user* time*'],
  unmuteuser: ['chats', 'user*'],
  fetchallmutes: ['chats', ''],
  upload: ['files', 'url*'],
  editfile: ['files', 'id* url* authed'],
  fetchfile: ['files', 'id*'],
  fetchallfiles: ['files', ''],
  delfile: ['files', 'fileid*'],
  delallfiles: ['files', ''],
  addvar: ['vars', 'name* data* authed*'],
  editvar: ['vars', 'varid* data*'],
  delvar: ['vars', 'name*'],
  delallvars: ['vars', ''],
  retrvvar: ['vars', 'name*'],
  fetchallvars: ['vars', ''],
  addtime: ['licenses', 'time*'],
  assignkey: ['licenses', 'key* user*'],
  ban: ['licenses', 'key* reason userToo'],
  unban: ['licenses', 'key*'],
  // keys: a sandbox extension (given keys, several a call), sent only where getsettings lists it.
  add: ['licenses', 'expiry* amount level mask note character owner keys'],
  activate: ['licenses', 'key* user* pass* hwid'],
  del: ['licenses', 'key* userToo'],
  delmultiple: ['licenses', 'key* userToo'],
  delalllicenses: ['licenses', ''],
  delused: ['licenses', ''],
  delunused: ['licenses', ''],
  fetchallkeys: ['licenses', ''],
  info: ['licenses', 'key*'],
  setnote: ['licenses', 'key* note*'],
  verify: ['licenses', 'key*'],
  edit: ['licenses', 'key* expiry*'],
  fetchnote: ['licenses', 'key*'],
  fetchalllogs: ['logs', ''],
  dellogs: ['logs', ''],
  kill: ['sessions', 'sessid*'],
  killall: ['sessions', ''],
  fetchallsessions: ['sessions', ''],
  addsub: ['subs', 'name* level*'],
  editsub: ['subs', 'sub* level*'],
  delappsub: ['subs', 'name*'],
  fetchallsubs: ['subs', ''],
  pausesub: ['subs', 'subscription*'],
  unpausesub: ['subs', 'subscription*'],
  countsubs: ['subs', 'name*'],
  addhwiduser: ['users', 'user* hwid*'],
  banuser: ['users', 'user* reason*'],
  unbanuser: ['users', 'user*'],
  adduser: ['users', 'user* pass sub* expiry*'],
  resetpw: ['users', 'user* passwd'],
  editemail: ['users', 'user* email*'],
  editusername: ['users', 'currentUsername* newUsername* sessionID'],
  deluser: ['users', 'user*'],
  delexpusers: ['users', ''],
  delallusers: ['users', ''],
  delsub: ['users', 'user* sub*'],
  extend: ['users', 'user* sub* expiry* activeOnly'],
  subtract: ['users', 'user* sub* seconds*'],
  pauseuser: ['users', 'username*'],
  unpauseuser: ['users', 'username*'],
  fetchallusers: ['users', ''],
  fetchallusernames: ['users', ''],
  usersub: ['users', 'user*'],
  getkey: ['users', 'user*'],
  userdata: ['users', 'user*'],
  resetuser: ['users', 'user*'],
  resetalluser: ['users', ''],
  setcooldown: ['users', 'user* cooldown*'],
  verifyuser: ['users', 'user*'],
  deluservar: ['uservars', 'user* var*'],
  massUserVarDelete: ['uservars', 'name*'],
  fetchalluservars: ['uservars', ''],
  getvar: ['uservars', 'user* var*'],
  setvar: ['uservars', 'user* var* data* readOnly'],
  addwebhook: ['webhooks', 'baseurl* ua authed* webid'],
  delwebhook: ['webhooks', 'webid*'],
  delallwebhooks: ['webhooks', ''],
  fetchallwebhooks: ['webhooks', ''],
  addbutton: ['loader', 'text* value*'],
  delbutton: ['loader', 'value*'],
  delallbuttons: ['loader', ''],
  fetchallbuttons: ['loader', ''],
  addWhite: ['whitelists', 'ip*'],
  delWhite: ['whitelists', 'ip*'],
  delallwhites: ['whitelists', ''],
  setbalance: ['team', 'username* day week month threemonth sixmonth lifetime year'],
  addAccount: ['team', 'role* user* pass* email* keylevels perms'],
  deleteAccount: ['team', 'user*'],
  fetchteam: ['team', ''],
  getbalance: ['team', 'username* appname*'],
};

/** Spellings recorded by the clients for the disputed delete-all types. */
const EXPECTED_ALIASES: Readonly<Record<string, string>> = { delAllButtons: 'delallbuttons', delAllWhites: 'delallwhites' };

/** Answers other than a bare message, keyed by opKey: [kind, key, emptyMessage]. */
const EXPECTED_RESPONSES: Readonly<Record<string, readonly [string, string?, string?]>> = {
  fetchallkeys: ['list', 'keys', 'No keys found'],
  fetchallusers: ['list', 'users', 'No users found'],
  fetchallusernames: ['list', 'usernames', 'No users found'],
  fetchalluservars: ['list', 'vars', 'No user variables Found'],
  usersub: ['list', 'subs', 'No Subscriptions Found'],
  fetchallsubs: ['list', 'subs', 'No subscriptions found'],
  fetchallsessions: ['list', 'sessions', 'No sessions found'],
  fetchallvars: ['list', 'vars', 'No variables Found'],
  fetchallwebhooks: ['list', 'webhooks', 'No webhooks found'],
  fetchallfiles: ['list', 'files', 'No files Found'],
  fetchallblacks: ['list', 'blacklists', 'No blacklists found'],
  fetchallchats: ['list', 'chats', 'No chats found'],
  fetchallmutes: ['list', 'mutes', 'No mutes found'],
  fetchalllogs: ['list', 'logs', 'No logs found'],
  fetchallbuttons: ['list', 'buttons', 'No buttons found'],
  fetchteam: ['list', 'resellers', 'No team members found'],
  'fetchteam --managers': ['list', 'managers', 'No team members found'],
  getkey: ['value', 'key'],
  getvar: ['value', 'response'],
  retrvvar: ['value', 'message'],
  countsubs: ['value', 'count'],
  fetchnote: ['value', 'note'],
  upload: ['value', 'id'],
  appdetails: ['object', 'appdetails'],
  fetchfile: ['object', 'file'],
  getbalance: ['object', 'balance'],
  activate: ['object', 'info'],
  stats: ['flat'],
  info: ['flat'],
  getsettings: ['flat'],
  userdata: ['flat'],
  add: ['keys'],
};

/** `type.wire` → unit. Units differ between look-alike parameters; each one is pinned. */
const EXPECTED_UNITS: Readonly<Record<string, string>> = {
  'updatesettings.cooldown': 'seconds',
  'add.expiry': 'days',
  'adduser.expiry': 'days',
  'extend.expiry': 'days',
  'addtime.time': 'days',
  'edit.expiry': 'seconds',
  'subtract.seconds': 'seconds',
  'muteuser.time': 'seconds',
  'setcooldown.cooldown': 'seconds',
  'addchannel.delay': 'seconds',
  'editchan.delay': 'minutes',
};

/** Every many-record change, keyed by opKey → the list it is backed up from (null: none exists). */
const EXPECTED_BULK: Readonly<Record<string, string | null>> = {
  delalllicenses: 'fetchallkeys',
  delused: 'fetchallkeys',
  delunused: 'fetchallkeys',
  delmultiple: 'fetchallkeys',
  addtime: 'fetchallkeys',
  delallusers: 'fetchallusers',
  delexpusers: 'fetchallusers',
  resetalluser: 'fetchallusers',
  'extend --all': 'fetchallusers',
  'subtract --all': 'fetchallusers',
  'setvar --all': 'fetchalluservars',
  massUserVarDelete: 'fetchalluservars',
  killall: 'fetchallsessions',
  delallvars: 'fetchallvars',
  delallfiles: 'fetchallfiles',
  delallwebhooks: 'fetchallwebhooks',
  delblacks: 'fetchallblacks',
  delallbuttons: 'fetchallbuttons',
  dellogs: 'fetchalllogs',
  clearchannel: null,
  delallwhites: null,
};

/**
 * Bulk operations that back up from nothing although their group has a list operation: the
 * group's lists hold other records than the ones the operation removes.
 */
const LISTS_OF_OTHER_RECORDS: Readonly<Record<string, string>> = {
  clearchannel: 'chats list and chats mutes list channels and mutes, not the messages it deletes',
};

/** Answers the page says are printed as plain text under format=text beyond the message helpers. */
const TEXT_ANSWERS = new Set(['add', 'getvar', 'upload', 'getsettings']);
/** Always JSON on success, but its failures honour format=text (docs/protocol/seller-api.md §3.6). */
const TEXT_FAILURES = new Set(['activate']);
/** Types known only from clients (not in the server source E). */
const CLIENT_ONLY = new Set(['delwebhook', 'fetchteam', 'delallbuttons', 'delallwhites']);

const SECRET_LOOKING = /^pass(wd)?$|password|secret|token|hash|enckey|googleauth|2fa|sellerkey/i;
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

// ---------------------------------------------------------------- helpers

function firstOfType(ops: Ops, type: string): SellerOp | undefined {
  return ops.find((op) => op.type === type);
}

function positionals(op: SellerOp): ParamSpec[] {
  return op.params.filter((p) => p.positional);
}

/** Split a command line like a shell: spaces separate, double quotes group. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** A boolean flag takes no value on the command line. */
function isSwitch(param: ParamSpec): boolean {
  return param.type === 'bool01';
}

function valueProblem(param: ParamSpec, value: string): string | undefined {
  if (param.type === 'integer' && !/^-?\d+$/.test(value)) return `--${param.flag} ${value} is not an integer`;
  if (param.type === 'number' && !Number.isFinite(Number(value))) return `--${param.flag} ${value} is not a number`;
  if (param.type === 'booltext' && value !== 'true' && value !== 'false') return `--${param.flag} ${value} is not true/false`;
  if (param.type === 'enum' && !param.choices?.includes(value)) return `--${param.flag} ${value} is not a choice`;
  return undefined;
}

/** What is wrong with an op's example against the op's own flags. */
function exampleProblems(op: SellerOp): string[] {
  const problems: string[] = [];
  const words = shellWords(op.example);
  const prefix = ['kactl', op.group, ...op.command];
  if (prefix.some((word, i) => words[i] !== word)) return [`${opKey(op)}: example does not start with "${prefix.join(' ')}"`];
  const seen = new Set<string>();
  let bare = 0;
  for (let i = prefix.length; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('--')) {
      bare++;
      continue;
    }
    const name = word.slice(2);
    if (name === op.selector) {
      seen.add(name);
      continue;
    }
    const param = op.params.find((p) => p.flag === name && !p.positional);
    if (!param) {
      problems.push(`${opKey(op)}: example uses --${name}, which the op does not define`);
      continue;
    }
    seen.add(name);
    if (isSwitch(param)) continue;
    const value = words[++i];
    if (value === undefined || value.startsWith('--')) problems.push(`${opKey(op)}: example gives --${name} no value`);
    else {
      const problem = valueProblem(param, value);
      if (problem) problems.push(`${opKey(op)}: example ${problem}`);
    }
  }
  if (bare !== positionals(op).length) problems.push(`${opKey(op)}: example has ${bare} positional(s), op has ${positionals(op).length}`);
  if (op.selector !== undefined && !seen.has(op.selector)) problems.push(`${opKey(op)}: example lacks --${op.selector}`);
  for (const param of op.params) {
    // A required switch is sent as 0 when absent, so an example may leave it out.
    if (param.required && !param.positional && !isSwitch(param) && !seen.has(param.flag)) {
      problems.push(`${opKey(op)}: example lacks required --${param.flag}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------- checks

const checks = {
  everyExpectedTypePresent: (ops) =>
    Object.entries(EXPECTED).flatMap(([type, [group]]) => {
      const op = firstOfType(ops, type);
      if (!op) return [`${type} missing`];
      return op.group === group ? [] : [`${type} is in ${op.group}, expected ${group}`];
    }),

  noUnexpectedType: (ops) => ops.filter((op) => !(op.type in EXPECTED)).map((op) => `${op.type} is not a known type`),

  aliasesRecordedAndUnique: (ops) => {
    const problems: string[] = [];
    const types = new Set(ops.map((op) => op.type));
    const seen = new Map<string, string>();
    for (const op of ops) {
      for (const alias of op.typeAliases ?? []) {
        if (types.has(alias)) problems.push(`alias ${alias} of ${op.type} is also a type`);
        const owner = seen.get(alias);
        if (owner !== undefined && owner !== op.type) problems.push(`alias ${alias} on ${owner} and ${op.type}`);
        seen.set(alias, op.type);
        if (EXPECTED_ALIASES[alias] !== op.type) problems.push(`alias ${alias} of ${op.type} is not recorded`);
      }
    }
    for (const [alias, type] of Object.entries(EXPECTED_ALIASES)) {
      if (seen.get(alias) !== type) problems.push(`${type} lacks alias ${alias}`);
    }
    return problems;
  },

  sharedTypesAreSelectorVariants: (ops) => {
    const problems: string[] = [];
    const keys = new Set<string>();
    for (const op of ops) {
      const key = opKey(op);
      if (keys.has(key)) problems.push(`${key} appears twice`);
      keys.add(key);
      const first = firstOfType(ops, op.type)!;
      // Fixed parameters make a selector variant; the first entry is the wire contract.
      if (first === op) {
        if (Object.keys(fixedParamsFor(op)).length > 0) problems.push(`${key}: first entry fixes parameters`);
        continue;
      }
      if (first.selector !== undefined) problems.push(`${op.type}: first entry has a selector`);
      if (op.selector === undefined) problems.push(`${op.type}: second entry without a selector`);
      if (op.group !== first.group) problems.push(`${op.type}: variants in two groups`);
      const fixed = fixedParamsFor(op);
      const differs = Object.keys(fixed).length > 0 || JSON.stringify(op.response) !== JSON.stringify(first.response);
      if (!differs) problems.push(`${key}: variant neither fixes a parameter nor answers differently`);
      for (const wire of Object.keys(fixed)) {
        if (!first.params.some((p) => p.wire === wire)) problems.push(`${key}: fixes ${wire}, unknown to ${op.type}`);
        if (op.params.some((p) => p.wire === wire)) problems.push(`${key}: fixes ${wire} and also asks for it`);
      }
    }
    return problems;
  },

  uniqueCommandAndSelector: (ops) => {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const op of ops) {
      const key = `${op.group} ${op.command.join(' ')} --${op.selector ?? ''}`;
      if (seen.has(key)) problems.push(`${key} is taken twice`);
      seen.add(key);
    }
    return problems;
  },

  commandWordsAndSelectorsAreKebab: (ops) =>
    ops.flatMap((op) =>
      [...op.command, ...(op.selector === undefined ? [] : [op.selector])]
        .filter((word) => !KEBAB.test(word))
        .map((word) => `${opKey(op)}: "${word}" is not kebab-case`),
    ),

  positionalIsOneRequiredAndFirst: (ops) =>
    ops.flatMap((op) => {
      const found = positionals(op);
      if (found.length === 0) return [];
      if (found.length > 1) return [`${opKey(op)}: ${found.length} positionals`];
      const problems: string[] = [];
      if (op.params[0] !== found[0]) problems.push(`${opKey(op)}: positional is not first`);
      if (!found[0]!.required) problems.push(`${opKey(op)}: positional is optional`);
      return problems;
    }),

  flagsKebabAndUnique: (ops) =>
    ops.flatMap((op) => {
      const problems: string[] = [];
      const flags = new Set<string>();
      const wires = new Set<string>();
      for (const p of op.params) {
        if (!KEBAB.test(p.flag)) problems.push(`${opKey(op)}: flag ${p.flag} is not kebab-case`);
        if (flags.has(p.flag)) problems.push(`${opKey(op)}: flag ${p.flag} twice`);
        if (wires.has(p.wire)) problems.push(`${opKey(op)}: wire ${p.wire} twice`);
        if (p.flag === op.selector) problems.push(`${opKey(op)}: flag ${p.flag} clashes with the selector`);
        flags.add(p.flag);
        wires.add(p.wire);
      }
      return problems;
    }),

  wireParamsAsExpected: (ops) =>
    Object.entries(EXPECTED).flatMap(([type, [, spec]]) => {
      const variants = ops.filter((op) => op.type === type);
      if (variants.length === 0) return [];
      const byWire = new Map<string, ParamSpec>();
      for (const op of variants) for (const p of op.params) if (!byWire.has(p.wire)) byWire.set(p.wire, p);
      // A fixed parameter (user=all) is still a parameter of the type.
      const actual = [...byWire.values()].map((p) => (p.required ? `${p.wire}*` : p.wire)).sort();
      const expected = spec.split(' ').filter(Boolean).sort();
      return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [`${type}: params ${actual.join(' ')}, expected ${expected.join(' ')}`];
    }),

  paramTypesConsistent: (ops) =>
    ops.flatMap((op) =>
      op.params.flatMap((p) => {
        const at = `${opKey(op)} ${p.wire}`;
        const problems: string[] = [];
        if ((p.type === 'enum') !== (p.choices !== undefined && p.choices.length > 0)) problems.push(`${at}: enum and choices disagree`);
        if (p.unit && p.type !== 'integer' && p.type !== 'number') problems.push(`${at}: a unit on a ${p.type}`);
        if (p.maxLength !== undefined && p.type !== 'string' && p.type !== 'integer') problems.push(`${at}: maxLength on a ${p.type}`);
        if (p.description.trim() === '' || p.description.includes('\n')) problems.push(`${at}: description must be one line`);
        // An extension the hosted service ignores cannot be one the call needs.
        if (p.sandboxExtension !== undefined && (p.required || p.positional)) problems.push(`${at}: a sandbox extension must be optional`);
        return problems;
      }),
    ),

  unitsAsExpected: (ops) => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const op of ops) {
      for (const p of op.params) {
        const key = `${op.type}.${p.wire}`;
        if (p.unit === undefined) {
          if (key in EXPECTED_UNITS) problems.push(`${key} has no unit`);
          continue;
        }
        seen.add(key);
        if (EXPECTED_UNITS[key] !== p.unit) problems.push(`${key} is in ${p.unit}, expected ${EXPECTED_UNITS[key]}`);
        // The flag names the unit unless it is days (--expiry / --days, the API's own habit).
        if (p.unit !== 'days' && !p.flag.includes(p.unit)) problems.push(`${key}: flag --${p.flag} does not say ${p.unit}`);
      }
    }
    for (const key of Object.keys(EXPECTED_UNITS)) if (!seen.has(key)) problems.push(`${key} missing`);
    return problems;
  },

  passwordsAreSecret: (ops) =>
    ops.flatMap((op) =>
      op.params
        .filter((p) => (/^pass(wd)?$|secret/i.test(p.wire) || p.flag === 'password') !== (p.secret === true))
        .map((p) => `${opKey(op)} ${p.wire}: secret flag wrong`),
    ),

  responsesAsExpected: (ops) =>
    ops.flatMap((op) => {
      const [kind, key, empty] = EXPECTED_RESPONSES[opKey(op)] ?? ['message'];
      const r = op.response;
      const actualKey = 'key' in r ? r.key : undefined;
      const actualEmpty = r.kind === 'list' ? r.emptyMessage : undefined;
      if (r.kind !== kind || actualKey !== key || actualEmpty !== empty) {
        return [`${opKey(op)}: response ${r.kind}/${actualKey}/${actualEmpty}, expected ${kind}/${key}/${empty}`];
      }
      return [];
    }),

  listsHaveSafeColumns: (ops) =>
    ops.flatMap((op) => {
      const r = op.response;
      if (r.kind !== 'list') return [];
      if (r.columns.length === 0) return [`${opKey(op)}: no columns`];
      // `app` on license, user and webhook rows is the application secret.
      // A list never shows a credential, declared (kind `secret`) or by its look.
      return r.columns
        .filter((c) => c.kind === 'secret' || SECRET_LOOKING.test(c.key) || c.key === 'app')
        .map((c) => `${opKey(op)}: column ${c.key} looks secret`);
    }),

  recordViewsHideSecrets: (ops) =>
    ops.flatMap((op) => {
      const r = op.response;
      if (r.kind !== 'flat' && r.kind !== 'object') return [];
      if (r.fields.length === 0) return [`${opKey(op)}: no fields`];
      // appdetails shows the app secret on purpose (needed to set up a client profile).
      // A secret-looking field must be declared `secret` (shown on purpose), and only appdetails has one.
      return r.fields
        .filter((f) => (SECRET_LOOKING.test(f.key) || f.kind === 'secret') && !(op.type === 'appdetails' && f.key === 'secret' && f.kind === 'secret'))
        .map((f) => `${opKey(op)}: field ${f.key} looks secret`);
    }),

  bulkAsExpected: (ops) => {
    const problems: string[] = [];
    const bulk = ops.filter((op) => op.effect === 'bulk');
    for (const op of bulk) {
      const key = opKey(op);
      if (!(key in EXPECTED_BULK)) problems.push(`${key} is bulk, not expected`);
      else if ((op.backupFrom ?? null) !== EXPECTED_BULK[key]) problems.push(`${key} backs up from ${op.backupFrom}, expected ${EXPECTED_BULK[key]}`);
    }
    for (const key of Object.keys(EXPECTED_BULK)) {
      if (!bulk.some((op) => opKey(op) === key)) problems.push(`${key} should be bulk`);
    }
    return problems;
  },

  bulkHasSelectorOrOwnVerb: (ops) =>
    ops
      .filter((op) => op.effect === 'bulk' && op.selector === undefined)
      .filter((op) => ops.some((o) => o !== op && o.group === op.group && o.command.join(' ') === op.command.join(' ')))
      .map((op) => `${opKey(op)}: bulk default of a path other ops share; give it a selector or its own verb`),

  backupFromIsUsableList: (ops) =>
    ops.flatMap((op) => {
      if (op.noBackupReason !== undefined && op.effect !== 'bulk') return [`${opKey(op)}: noBackupReason on a ${op.effect}`];
      if (op.backupFrom === undefined) {
        if (op.effect !== 'bulk') return [];
        return op.noBackupReason?.trim() ? [] : [`${opKey(op)}: bulk without backupFrom or a noBackupReason`];
      }
      const problems: string[] = [];
      if (op.effect === 'read' || op.effect === 'write') problems.push(`${opKey(op)}: backupFrom on a ${op.effect}`);
      if (op.noBackupReason !== undefined) problems.push(`${opKey(op)}: both backupFrom and a noBackupReason`);
      const list = firstOfType(ops, op.backupFrom);
      if (!list || list.response.kind !== 'list' || list.effect !== 'read') return [...problems, `${opKey(op)}: backupFrom ${op.backupFrom} is not a list`];
      // The backup is taken with the op's own arguments (usersub needs the user delsub names).
      const has = new Set([...op.params.map((p) => p.wire), ...Object.keys(fixedParamsFor(op))]);
      for (const p of list.params) if (p.required && !has.has(p.wire)) problems.push(`${opKey(op)}: cannot call ${list.type} without ${p.wire}`);
      return problems;
    }),

  // Completion calls the list with nothing but the seller key, in one request (src/commands/completion/).
  completeFromIsAnArgumentFreeList: (ops) =>
    ops.flatMap((op) =>
      op.params.flatMap((p) => {
        if (p.completeFrom === undefined) return [];
        const list = firstOfType(ops, p.completeFrom);
        if (!list || list.response.kind !== 'list' || list.effect !== 'read' || list.response.columns.length === 0) return [`${opKey(op)}: ${p.wire} completes from ${p.completeFrom}, not a list`];
        return list.params.filter((q) => q.required).map((q) => `${opKey(op)}: ${p.wire} completes from ${list.type}, which needs ${q.wire}`);
      }),
    ),

  bulkBacksUpFromItsGroupsList: (ops) =>
    ops
      .filter((op) => op.effect === 'bulk')
      .flatMap((op) => {
        const lists = ops.filter((o) => o.group === op.group && o.effect === 'read' && o.response.kind === 'list');
        if (op.backupFrom !== undefined) {
          return lists.some((list) => list.type === op.backupFrom) ? [] : [`${opKey(op)}: backs up from ${op.backupFrom}, not a list of ${op.group}`];
        }
        if (lists.length === 0 || LISTS_OF_OTHER_RECORDS[opKey(op)] !== undefined) return [];
        return [`${opKey(op)}: ${op.group} has ${lists.map((list) => list.type).join(', ')} but the op says "${op.noBackupReason}"`];
      }),

  deletesNeedConfirmation: (ops) =>
    ops
      .filter((op) => (op.command[0] === 'delete' || op.command[0] === 'kill') && op.effect !== 'delete-one' && op.effect !== 'bulk')
      .map((op) => `${opKey(op)}: a delete that is ${op.effect}`),

  textFormatWhereThePageSays: (ops) =>
    ops
      .filter((op) => (op.textFormat === true) !== (op.response.kind === 'message' || TEXT_ANSWERS.has(op.type) || TEXT_FAILURES.has(op.type)))
      .map((op) => `${opKey(op)}: textFormat ${op.textFormat}`),

  examplesUseTheOpsOwnFlags: (ops) => ops.flatMap(exampleProblems),

  summariesAreOneLine: (ops) =>
    ops
      .filter((op) => !/^[A-Z][^\n]*[^.\n]$/.test(op.summary))
      .map((op) => `${opKey(op)}: summary "${op.summary}"`),

  sourcesAsExpected: (ops) =>
    ops.filter((op) => op.source !== (CLIENT_ONLY.has(op.type) ? 'C' : 'E')).map((op) => `${opKey(op)}: source ${op.source}`),

  everyGroupHasOpsAndDescription: (ops) =>
    GROUPS.flatMap((group) => {
      const problems: string[] = [];
      if (!ops.some((op) => op.group === group)) problems.push(`${group} has no ops`);
      if (!SELLER_GROUPS[group]?.trim()) problems.push(`${group} has no description`);
      return problems;
    }),
} satisfies Record<string, Check>;

// ---------------------------------------------------------------- broken copies

function patch(ops: Ops, key: string, change: (op: SellerOp) => SellerOp): Ops {
  if (!ops.some((op) => opKey(op) === key)) throw new Error(`no ${key} to break`);
  return ops.map((op) => (opKey(op) === key ? change(op) : op));
}

function withParams(ops: Ops, key: string, change: (params: ParamSpec[]) => ParamSpec[]): Ops {
  return patch(ops, key, (op) => ({ ...op, params: change([...op.params]) }));
}

function editParam(ops: Ops, key: string, wire: string, change: Partial<ParamSpec>): Ops {
  return withParams(ops, key, (params) => params.map((p) => (p.wire === wire ? { ...p, ...change } : p)));
}

const BROKEN: readonly Broken<SellerOp, keyof typeof checks>[] = [
  ['everyExpectedTypePresent', 'setseller removed', (ops) => ops.filter((op) => op.type !== 'setseller')],
  ['everyExpectedTypePresent', 'getkey in the wrong group', (ops) => patch(ops, 'getkey', (op) => ({ ...op, group: 'licenses' }))],
  ['noUnexpectedType', 'a misspelt type', (ops) => patch(ops, 'delblacks', (op) => ({ ...op, type: 'delblack s' }))],
  ['aliasesRecordedAndUnique', 'alias dropped', (ops) => patch(ops, 'delallbuttons', (op) => ({ ...op, typeAliases: [] }))],
  ['aliasesRecordedAndUnique', 'alias equal to a type', (ops) => patch(ops, 'delallwhites', (op) => ({ ...op, typeAliases: ['delAllWhites', 'delWhite'] }))],
  ['sharedTypesAreSelectorVariants', 'a type entered twice', (ops) => [...ops, { ...ops.find((op) => op.type === 'kill')!, command: ['end'] }]],
  ['sharedTypesAreSelectorVariants', 'variant that changes nothing', (ops) => patch(ops, 'fetchteam --managers', (op) => ({ ...op, response: ops.find((o) => o.type === 'fetchteam')!.response }))],
  ['sharedTypesAreSelectorVariants', 'variant still asks for user', (ops) => withParams(ops, 'extend --all', (p) => [...p, { ...p[0]!, wire: 'user', flag: 'username' }])],
  ['uniqueCommandAndSelector', 'two ops on delete --all', (ops) => patch(ops, 'delused', (op) => ({ ...op, selector: 'all' }))],
  ['commandWordsAndSelectorsAreKebab', 'camelCase verb', (ops) => patch(ops, 'resetuser', (op) => ({ ...op, command: ['resetHwid'] }))],
  ['positionalIsOneRequiredAndFirst', 'positional second', (ops) => withParams(ops, 'ban', (p) => [p[1]!, p[0]!, p[2]!])],
  ['positionalIsOneRequiredAndFirst', 'optional positional', (ops) => editParam(ops, 'del', 'key', { required: false })],
  ['positionalIsOneRequiredAndFirst', 'two positionals', (ops) => editParam(ops, 'banuser', 'reason', { positional: true })],
  ['flagsKebabAndUnique', 'camelCase flag', (ops) => editParam(ops, 'del', 'userToo', { flag: 'userToo' })],
  ['flagsKebabAndUnique', 'duplicate flag', (ops) => editParam(ops, 'add', 'note', { flag: 'mask' })],
  ['wireParamsAsExpected', 'wrong wire name', (ops) => editParam(ops, 'kill', 'sessid', { wire: 'sessID' })],
  ['wireParamsAsExpected', 'required lost', (ops) => editParam(ops, 'banuser', 'reason', { required: false })],
  ['wireParamsAsExpected', 'pauseuser with user', (ops) => editParam(ops, 'pauseuser', 'username', { wire: 'user' })],
  ['paramTypesConsistent', 'enum without choices', (ops) => editParam(ops, 'add', 'character', { choices: undefined })],
  ['paramTypesConsistent', 'unit on a string', (ops) => editParam(ops, 'black', 'ip', { unit: 'days' })],
  ['paramTypesConsistent', 'required sandbox extension', (ops) => editParam(ops, 'add', 'keys', { required: true })],
  ['unitsAsExpected', 'editchan in seconds', (ops) => editParam(ops, 'editchan', 'delay', { unit: 'seconds', flag: 'delay-seconds' })],
  ['unitsAsExpected', 'flag hides the unit', (ops) => editParam(ops, 'subtract', 'seconds', { flag: 'time' })],
  ['unitsAsExpected', 'unit dropped', (ops) => editParam(ops, 'add', 'expiry', { unit: undefined })],
  ['passwordsAreSecret', 'password not secret', (ops) => editParam(ops, 'adduser', 'pass', { secret: undefined })],
  ['responsesAsExpected', 'wrong list key', (ops) => patch(ops, 'fetchallblacks', (op) => ({ ...op, response: { kind: 'list', key: 'subs', columns: [col('ip', 'IP')], emptyMessage: 'No blacklists found' } }))],
  ['responsesAsExpected', 'wrong empty message', (ops) => patch(ops, 'fetchallkeys', (op) => ({ ...op, response: { kind: 'list', key: 'keys', columns: [col('key', 'KEY')], emptyMessage: 'No License Keys Found' } }))],
  ['responsesAsExpected', 'wrong value key', (ops) => patch(ops, 'retrvvar', (op) => ({ ...op, response: { kind: 'value', key: 'response' } }))],
  ['listsHaveSafeColumns', 'password column', (ops) => patch(ops, 'fetchallusers', (op) => ({ ...op, response: { kind: 'list', key: 'users', columns: [col('username', 'USERNAME'), col('password', 'PASSWORD')], emptyMessage: 'No users found' } }))],
  ['listsHaveSafeColumns', 'app secret column', (ops) => patch(ops, 'fetchallkeys', (op) => ({ ...op, response: { kind: 'list', key: 'keys', columns: [col('key', 'KEY'), col('app', 'APP')], emptyMessage: 'No keys found' } }))],
  ['listsHaveSafeColumns', 'no columns', (ops) => patch(ops, 'fetchallchats', (op) => ({ ...op, response: { kind: 'list', key: 'chats', columns: [], emptyMessage: 'No chats found' } }))],
  ['recordViewsHideSecrets', 'password hash in userdata', (ops) => patch(ops, 'userdata', (op) => ({ ...op, response: { kind: 'flat', fields: [col('username', 'USERNAME'), col('password', 'PASSWORD')] } }))],
  ['recordViewsHideSecrets', 'app secret not declared secret', (ops) => patch(ops, 'appdetails', (op) => ({ ...op, response: { kind: 'object', key: 'appdetails', fields: [col('name', 'NAME'), col('secret', 'SECRET')] } }))],
  ['listsHaveSafeColumns', 'a list column declared secret', (ops) => patch(ops, 'fetchallsubs', (op) => ({ ...op, response: { kind: 'list', key: 'subs', columns: [col('name', 'NAME', 'secret')], emptyMessage: 'No subscriptions found' } }))],
  ['bulkAsExpected', 'delete all made single', (ops) => patch(ops, 'delallvars', (op) => ({ ...op, effect: 'delete-one' }))],
  ['bulkAsExpected', 'wrong backup list', (ops) => patch(ops, 'killall', (op) => ({ ...op, backupFrom: 'fetchallusers' }))],
  ['bulkHasSelectorOrOwnVerb', 'bulk as the default of delete', (ops) => patch(ops, 'delalllicenses', (op) => ({ ...op, command: ['delete-many'] }))],
  ['backupFromIsUsableList', 'bulk without a backup', (ops) => patch(ops, 'delblacks', ({ backupFrom: _, ...op }) => op)],
  ['backupFromIsUsableList', 'both a backup list and a reason', (ops) => patch(ops, 'delallfiles', (op) => ({ ...op, noBackupReason: 'none' }))],
  ['backupFromIsUsableList', 'blank reason', (ops) => patch(ops, 'clearchannel', (op) => ({ ...op, noBackupReason: ' ' }))],
  ['backupFromIsUsableList', 'reason on a single delete', (ops) => patch(ops, 'delvar', (op) => ({ ...op, noBackupReason: 'none' }))],
  ['sharedTypesAreSelectorVariants', 'first entry fixes user=all', (ops) => patch(ops, 'subtract', (op) => ({ ...op, fixedParams: { user: 'all' } }))],
  ['backupFromIsUsableList', 'backup from a delete', (ops) => patch(ops, 'delused', (op) => ({ ...op, backupFrom: 'del' }))],
  ['backupFromIsUsableList', 'backup list needs an argument the op lacks', (ops) => patch(ops, 'delexpusers', (op) => ({ ...op, backupFrom: 'usersub' }))],
  ['completeFromIsAnArgumentFreeList', 'completes from a delete', (ops) => editParam(ops, 'del', 'key', { completeFrom: 'del' })],
  ['completeFromIsAnArgumentFreeList', 'completes from a list that needs a user', (ops) => editParam(ops, 'deluser', 'user', { completeFrom: 'usersub' })],
  ['bulkBacksUpFromItsGroupsList', 'a list added to the group, the reason left stale', (ops) => [
    ...ops,
    { ...ops.find((op) => op.type === 'fetchallblacks')!, type: 'fetchallwhites', group: 'whitelists', command: ['list'], example: 'kactl whitelists list' },
  ]],
  ['bulkBacksUpFromItsGroupsList', 'backup from another group\'s list', (ops) => patch(ops, 'killall', (op) => ({ ...op, backupFrom: 'fetchallusers' }))],
  ['deletesNeedConfirmation', 'delete that does not confirm', (ops) => patch(ops, 'delvar', (op) => ({ ...op, effect: 'write' }))],
  ['textFormatWhereThePageSays', 'list with text format', (ops) => patch(ops, 'fetchallkeys', (op) => ({ ...op, textFormat: true }))],
  ['textFormatWhereThePageSays', 'add without text format', (ops) => patch(ops, 'add', ({ textFormat: _, ...op }) => op)],
  ['examplesUseTheOpsOwnFlags', 'example in another group', (ops) => patch(ops, 'kill', (op) => ({ ...op, example: 'kactl users kill a1b2c3d4e5' }))],
  ['examplesUseTheOpsOwnFlags', 'example with an unknown flag', (ops) => patch(ops, 'adduser', (op) => ({ ...op, example: `${op.example} --days 3` }))],
  ['examplesUseTheOpsOwnFlags', 'example missing a required flag', (ops) => patch(ops, 'addsub', (op) => ({ ...op, example: 'kactl subs create --name premium' }))],
  ['examplesUseTheOpsOwnFlags', 'example missing the positional', (ops) => patch(ops, 'banuser', (op) => ({ ...op, example: 'kactl users ban --reason spam' }))],
  ['examplesUseTheOpsOwnFlags', 'example missing the selector', (ops) => patch(ops, 'delunused', (op) => ({ ...op, example: 'kactl licenses delete' }))],
  ['examplesUseTheOpsOwnFlags', 'example with a bad enum value', (ops) => patch(ops, 'add', (op) => ({ ...op, example: 'kactl licenses create --expiry 1 --character 4' }))],
  ['summariesAreOneLine', 'two-line summary', (ops) => patch(ops, 'stats', (op) => ({ ...op, summary: 'Show stats.\nAll of them' }))],
  ['sourcesAsExpected', 'client-only type marked E', (ops) => patch(ops, 'delwebhook', (op) => ({ ...op, source: 'E' }))],
  ['everyGroupHasOpsAndDescription', 'logs emptied', (ops) => ops.filter((op) => op.group !== 'logs')],
];

// ---------------------------------------------------------------- tests

describe('seller catalog', () => {
  itHoldsItsChecks(SELLER_CATALOG, checks, BROKEN);

  it('names every exception to the backup rule once, for a real bulk operation', () => {
    for (const key of Object.keys(LISTS_OF_OTHER_RECORDS)) {
      const op = SELLER_CATALOG.find((o) => opKey(o) === key);
      expect(op?.effect, key).toBe('bulk');
      expect(op?.backupFrom, key).toBeUndefined();
    }
  });

  it('lists the groups in SELLER_GROUPS exactly once', () => {
    expect(Object.keys(SELLER_GROUPS).sort()).toEqual([...GROUPS].sort());
    for (const group of GROUPS) expect(opsForGroup(group).every((op) => op.group === group)).toBe(true);
    expect(GROUPS.reduce((n, group) => n + opsForGroup(group).length, 0)).toBe(SELLER_CATALOG.length);
  });
});

describe('lookups', () => {
  it('finds an op by exact type or alias, and only by exact case', () => {
    expect(findSellerOp('massUserVarDelete')?.group).toBe('uservars');
    expect(findSellerOp('delAllButtons')?.type).toBe('delallbuttons');
    expect(findSellerOp('delAllWhites')?.type).toBe('delallwhites');
    expect(findSellerOp('adduser')?.type).toBe('adduser');
    expect(findSellerOp('AddUser')).toBeUndefined();
    expect(findSellerOp('reset')).toBeUndefined();
  });

  it('gives the first entry for a type with variants', () => {
    expect(findSellerOp('extend')?.selector).toBeUndefined();
    expect(findSellerOp('fetchteam')?.response).toMatchObject({ key: 'resellers' });
  });

  it('finds an op by group, path and selector', () => {
    expect(findOpByPath('licenses', ['delete'])?.type).toBe('del');
    expect(findOpByPath('licenses', ['delete'], 'used')?.type).toBe('delused');
    expect(findOpByPath('users', ['extend'], 'all')?.type).toBe('extend');
    expect(findOpByPath('app', ['hash', 'reset'])?.type).toBe('resethash');
    expect(findOpByPath('logs', ['delete'])).toBeUndefined();
    expect(findOpByPath('logs', ['delete'], 'all')?.type).toBe('dellogs');
  });

  it('groups every op under exactly one command path', () => {
    for (const group of GROUPS) {
      const commands = commandsForGroup(group);
      expect(commands.flatMap((c) => c.ops)).toHaveLength(opsForGroup(group).length);
      for (const { command, ops } of commands) expect(ops.every((op) => op.command.join(' ') === command.join(' '))).toBe(true);
    }
    expect(commandsForGroup('licenses').find((c) => c.command[0] === 'delete')?.ops.map((op) => op.type)).toEqual(['del', 'delalllicenses', 'delused', 'delunused']);
  });

  it('sends user=all for the all-users variants and refuses "all" as a username there', () => {
    for (const type of ['extend', 'subtract', 'setvar']) {
      const variant = SELLER_CATALOG.find((op) => op.type === type && op.selector === 'all')!;
      expect(fixedParamsFor(variant)).toEqual({ user: 'all' });
      expect(reservedPositionalValues(findSellerOp(type)!)).toEqual(['all']);
    }
    expect(fixedParamsFor(findSellerOp('extend')!)).toEqual({});
    expect(reservedPositionalValues(findSellerOp('deluser')!)).toEqual([]);
  });

  it('describes every wire parameter of a type for the sandbox, the wire contract first', () => {
    const extend = wireParamsForType('extend');
    expect(extend.map((p) => p.wire)).toEqual(['user', 'sub', 'expiry', 'activeOnly']);
    expect(extend.find((p) => p.wire === 'user')?.required).toBe(true);
    expect(wireParamsForType('delAllWhites')).toEqual([]);
    expect(wireParamsForType('nope')).toEqual([]);
  });

  it('imports nothing at runtime but its own folder (cold start)', () => {
    expect(foreignImports("import { x } from './app.js';\nimport type { Y } from '../errors.js';\nimport 'undici';")).toEqual(['../errors.js', 'undici']);
    const dir = join(import.meta.dirname, '../../src/api/seller-catalog');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('index.ts');
    for (const file of files) expect(foreignImports(readFileSync(join(dir, file), 'utf8')), file).toEqual([]);
  });
});
