/**
 * The JSON Schemas of the state file and the flows file (`kactl schema` prints them; editors
 * complete from them). The loader validates against the same objects (validate.ts), so what
 * the schema says and what `kactl apply` accepts cannot drift apart.
 */
import { clientCommandNames, clientTypes } from '../api/client-catalog/index.js';
import { APP_SETTING_NAMES, APP_SETTINGS, appSetting } from './app-settings.js';
import { UNIT_PATTERN } from '../util/duration.js';
import { FAULT_KINDS } from '../server/faults/spec.js';

export type JsonSchema = {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | readonly ('string' | 'number' | 'integer' | 'boolean' | 'object' | 'array')[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly (string | number | boolean)[];
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  maxLength?: number;
  /** Values an editor offers as completions; not checked (validate.ts ignores it). */
  examples?: readonly (string | number | boolean)[];
  $id?: string;
  $schema?: string;
  title?: string;
};

/** A number with at least one digit that is not 0: `0d` and `0.0` say "no time", which no record can hold. */
const POSITIVE_AMOUNT = '(?=[0-9.]*[1-9])[0-9]+(\\.[0-9]+)?';
/** The units a duration may name (util/duration.ts, the one parser of durations). */
const UNITS = `${UNIT_PATTERN}?`;
const DURATION: JsonSchema = {
  type: ['string', 'number'],
  pattern: `^${POSITIVE_AMOUNT}${UNITS}$`,
  exclusiveMinimum: 0,
  description: 'A duration greater than zero: 2w, 30d, 12h, 90m, 45s, or a plain number of days',
};
/** When a user's subscription ends: a duration from now, or the moment itself (what `export` writes). */
const USER_EXPIRY: JsonSchema = {
  type: ['string', 'number'],
  pattern: `^(${POSITIVE_AMOUNT}${UNITS}|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)$`,
  exclusiveMinimum: 0,
  description: 'A duration from now (2w, 30d, 12h, 90m, 45s, days) or a UTC time such as 2030-01-31T12:00:00Z',
};
const TEXT: JsonSchema = { type: 'string' };
const FLAG: JsonSchema = { type: 'boolean' };
/** What the seller API takes as a level: digits, at most 12, above zero. */
const LEVEL: JsonSchema = { type: ['integer', 'string'], pattern: '^(?=[0-9]{1,12}$)0*[1-9][0-9]*$', minimum: 1, maximum: 999_999_999_999, description: 'A level: a whole number from 1, at most 12 digits' };
/** Where the server sends or fetches something: an absolute http(s) URL. */
const WEB_URL: JsonSchema = { type: 'string', pattern: '^https?://[^\\s/?#]+', description: 'An http:// or https:// URL' };

/**
 * A license's fields go by the names `licenses list` gives them (`duration`, `used_by`,
 * `ban_reason`); the names `licenses create` (`expiry`), the wire (`expires`, `usedby`, `banned`)
 * and earlier state files (`banreason`) use are the same fields (load: canonicalLicense).
 */
export const LICENSE_FIELD_ALIASES: Readonly<Record<string, string>> = { expiry: 'duration', expires: 'duration', usedby: 'used_by', banreason: 'ban_reason', banned: 'ban_reason' };

/** `properties` and, for each alias, the same schema described as the field it stands for. */
function withAliases(properties: Record<string, JsonSchema>, aliases: Readonly<Record<string, string>>): Record<string, JsonSchema> {
  return { ...properties, ...Object.fromEntries(Object.entries(aliases).map(([alias, name]) => [alias, { ...properties[name], description: `Same as ${name}` }])) };
}

function record(properties: Record<string, JsonSchema>, required: readonly string[] = [], description?: string): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...(description ? { description } : {}) };
}

/** Other spellings of the settings: the wire names of updatesettings and getsettings' fields. */
export const APP_SETTING_ALIASES: Readonly<Record<string, string>> = {
  hwidcheck: 'hwid-lock', version: 'app-version', ver: 'app-version', download: 'download-url', webhook: 'log-webhook', resellerstore: 'reseller-store',
  webdownload: 'web-download-url', cooldown: 'reset-cooldown-seconds',
  ...Object.fromEntries(APP_SETTINGS.filter((s) => s.sandbox && !s.name.startsWith('msg-')).map((s) => [s.field, s.name])),
};

const COUNT: JsonSchema = { type: 'integer', minimum: 0 };

function settingSchema(name: string): JsonSchema {
  const kind = appSetting(name)!.kind;
  return kind === 'flag' ? FLAG : kind === 'count' ? COUNT : TEXT;
}

const APP: JsonSchema = record(
  Object.fromEntries<JsonSchema>([
    ...APP_SETTING_NAMES.map((name): [string, JsonSchema] => [name, settingSchema(name)]),
    ...Object.entries(APP_SETTING_ALIASES).map(([alias, name]): [string, JsonSchema] => [alias, { ...settingSchema(name), description: `Same as ${name}` }]),
  ]),
  [],
  'Application settings, by the names `kactl app set` uses (shop secrets are not part of a state file)',
);

export const STATE_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://kactl.dev/schema/state.json',
  title: 'kactl state file',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: TEXT,
    app: APP,
    subscriptions: { type: 'array', items: record({ name: TEXT, level: LEVEL }, ['name', 'level']) },
    licenses: {
      type: 'array',
      description: 'A fixed key (reconciled by key) or a generated batch (count; reconciled by note and level)',
      items: record(withAliases({
        key: { type: 'string', maxLength: 70 },
        count: { type: 'integer', minimum: 1 },
        level: LEVEL,
        duration: { ...DURATION, description: 'How long the key grants once used, more than zero: 2w, 30d, 12h, 90m, 45s or days' },
        mask: TEXT,
        note: { type: 'string', maxLength: 69 },
        status: { type: 'string', enum: ['unused', 'used', 'banned'], description: 'unused (the default), used (with used_by), or banned' },
        used_by: { type: 'string', description: 'The user who redeemed the key (a used or banned key)' },
        ban_reason: { type: 'string', description: 'Why the key is banned' },
      }, LICENSE_FIELD_ALIASES)),
    },
    users: {
      type: 'array',
      description: 'Each user needs subscription and expiry, or subscriptions',
      items: record({
        username: { type: 'string', maxLength: 69 },
        password: { type: 'string', description: 'Left out: a random one nobody knows, or the key for a license customer (a user named after a key they used)' },
        subscription: TEXT,
        expiry: USER_EXPIRY,
        subscriptions: {
          type: 'array',
          items: record({
            name: TEXT,
            expiry: USER_EXPIRY,
            key: { type: 'string', description: 'The key that granted it (kactl export writes it): when this run makes the key used by this user, the key grants the subscription again' },
          }, ['name', 'expiry']),
        },
        email: { type: 'string', description: 'The email address (password resets and email codes go there); the seller API cannot read it back' },
        hwid: TEXT,
        banned: { type: ['string', 'boolean'], description: 'The ban reason of a banned user (true: banned, reason "Banned"); false: not banned (lifts a ban). Left out: a ban on the server stays' },
      }, ['username']),
    },
    variables: { type: 'object', additionalProperties: record({ value: TEXT, authed: FLAG }, ['value']) },
    uservars: {
      type: 'array',
      items: record({ username: TEXT, name: TEXT, value: TEXT, readonly: { type: 'boolean', description: 'true: the client may not overwrite it (false: it may; left out: as it is, writable when made)' } }, ['username', 'name', 'value']),
    },
    channels: { type: 'array', items: record({ name: TEXT, delay: { type: 'integer', minimum: 0, description: 'Seconds between messages' } }, ['name']) },
    webhooks: {
      type: 'array',
      items: record({
        id: { type: 'string', maxLength: 60 },
        url: WEB_URL,
        useragent: TEXT,
        authed: FLAG,
        truncated: { type: 'boolean', description: 'true: url is only the start the server shows; write the whole URL (and drop this) before it can be created' },
      }, ['id', 'url']),
    },
    files: { type: 'array', items: record({ url: WEB_URL, authed: FLAG }, ['url']) },
    blacklists: { type: 'array', items: record({ hwid: TEXT, ip: TEXT }) },
    whitelists: { type: 'array', items: record({ ip: TEXT }, ['ip']) },
    team: {
      type: 'array',
      items: record({ role: { type: 'string', enum: ['reseller', 'manager'] }, username: TEXT, email: TEXT, password: TEXT, keylevels: TEXT, perms: { type: ['integer', 'string'] } }, ['role', 'username']),
    },
  },
};

const ANY: JsonSchema = {};
const STEP: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'One of client, seller, advance, approve or fault, with optional with/code/save/expect/expect_log; or expect_log alone',
  properties: {
    name: TEXT,
    client: {
      type: 'string',
      description: 'A client operation, by its wire type (init, login, 2faenable) or the kactl command that sends it (2fa enable, var set); `with:` gives its wire parameters (login: username, pass, hwid)',
      examples: [...clientTypes(), ...clientCommandNames()],
    },
    seller: { type: 'string', description: 'A seller operation, by its wire name (add) or kactl verb (licenses create)' },
    advance: { ...DURATION, description: "Moves the sandbox's clock, e.g. 31d" },
    approve: { type: 'string', enum: ['magic-link'], description: "Approves the last magic link through the sandbox's page" },
    fault: {
      description:
        "Makes the sandbox answer the following steps wrongly (kactl sandbox fault add), e.g. forge-signature, \"stale-timestamp 10m\", { kind: replay, type: check, times: 1 }; clear removes the flow's faults. They are cleared when the flow ends",
      // A string (`kind [ARG]`, or `clear`), or an object: object rules apply only to an object.
      type: ['string', 'object'],
      additionalProperties: false,
      required: ['kind'],
      properties: {
        kind: { type: 'string', enum: [...FAULT_KINDS] },
        arg: { type: ['string', 'integer'] },
        type: TEXT,
        api: { type: ['string', 'number'] },
        user: TEXT,
        times: { type: 'integer', minimum: 1 },
        rate: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      },
    },
    with: {
      type: 'object',
      description: "The operation's parameters by their wire names (pass, not password); a client step's are checked against the client catalog when the file loads",
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    code: { type: 'string', enum: ['totp', 'from-outbox'], description: 'Adds `code`: the current TOTP (after 2faenable) or the latest emailed code' },
    save: { type: 'object', additionalProperties: TEXT, description: 'name: path in the answer; later steps use ${name}' },
    expect: {
      type: 'object',
      description: 'success, message (text or /regex/flags), exit (kactl exit code), or any field by path',
      additionalProperties: ANY,
    },
    expect_log: {
      type: 'object',
      description:
        "A request of this step (alone: of the step before) in the sandbox's request log must match: type, api, success, status, user, message, reason (text or /regex/flags), or any field by path, e.g. { type: login, success: false, reason: /HWID mismatch/ }",
      additionalProperties: ANY,
    },
  },
};

export const FLOWS_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://kactl.dev/schema/flows.json',
  title: 'kactl flows file',
  type: 'object',
  additionalProperties: false,
  required: ['flows'],
  properties: {
    $schema: TEXT,
    seed: { type: ['string', 'object'], description: 'A state file path (relative to this file) or a state body' },
    flows: {
      type: 'array',
      items: record({ name: TEXT, steps: { type: 'array', items: STEP } }, ['name', 'steps']),
    },
  },
};
