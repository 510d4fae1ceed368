/**
 * The one redactor (docs/architecture.md, "Secrets"). Seller keys travel in the query string,
 * passwords and license keys in form bodies, and servers echo URLs back in error pages, so
 * everything that may reach a terminal or a log goes through here first: `--verbose` lines,
 * error excerpts, audit records.
 *
 * Masking rule: a value under a sensitive name keeps a short prefix when it is long enough to
 * stay unguessable (`ab12…`, so a user can tell which key was used), and becomes `***` when
 * short. Password-like names are always `***`: even a prefix of a password is too much. The
 * sandbox's request inspector uses the same rule with `shortPrefix` (src/server/inspector/).
 */

/**
 * Parameter, field and header names whose values are secret. Compared case-insensitively
 * (`sessionID`, `sessID`, `adminToken` are covered by their lower-case spelling).
 */
export const SENSITIVE_NAMES: readonly string[] = [
  'sellerkey',
  'pass',
  'passwd',
  'password',
  'newpass',
  'newpassword',
  'key',
  'keys',
  'license',
  'secret',
  'sessionid',
  'sessid',
  'enckey',
  'code',
  // The 2FA code of an email-code login, where `code` is the mailed one (src/api/client-catalog/).
  'totp',
  'token',
  'tokens',
  'addtoken',
  'bantoken',
  'unbantoken',
  'deltoken',
  'form_token',
  'thash',
  'confirm',
  'current',
  'sellixsecret',
  'shoppysecret',
  'sellappsecret',
  'admintoken',
  'authorization',
  'cookie',
  'set-cookie',
];

/** Names whose values are masked completely, never with a prefix. */
export const FULLY_MASKED_NAMES: readonly string[] = [
  'pass',
  'passwd',
  'password',
  'newpass',
  'newpassword',
  'secret',
  'enckey',
  'code',
  'totp',
  'confirm',
  'current',
  'sellixsecret',
  'shoppysecret',
  'sellappsecret',
  'cookie',
  'set-cookie',
];

/**
 * Names that hold a secret by their look, whatever the exact spelling (`oldPassword`, `apiKey`,
 * `x-signature`, `client_secret`): the sandbox's request inspector masks these as well as the
 * list above (`isSecretName`), since it records whatever names a client sends.
 */
export const SECRET_NAME_PATTERN = /pass|pwd|secret|token|key|code|otp|auth|cred|sig/i;
/** Among those, the ones masked completely, never with a prefix. */
const FULLY_MASKED_PATTERN = /pass|pwd|secret|otp|code|cred/i;

/** What a masked value looks like when nothing of it is kept. */
export const MASK = '***';

/** Values at least this long keep a prefix; shorter ones could be guessed from one. */
const MIN_LENGTH_FOR_PREFIX = 12;
const PREFIX_LENGTH = 4;
/** With `shortPrefix`: values this long keep SHORT_PREFIX_LENGTH characters (a 10-character session id keeps 2). */
const MIN_LENGTH_FOR_SHORT_PREFIX = 8;
const SHORT_PREFIX_LENGTH = 2;
/**
 * With `shortPrefix`: a value shorter than this (a key `ZZZ` typed in a test) is no secret worth
 * hiding and is shown whole, unless its name is password-like. Masking it would only hide what
 * the tester sent, and `license *** not found` says less than `license ZZZ not found`.
 */
export const MIN_SECRET_LENGTH = 4;

export interface MaskOptions {
  /**
   * Keep 2 characters of a value of 8 to 11 (instead of masking it whole), so two sessions can be
   * told apart, and show a value of fewer than MIN_SECRET_LENGTH characters whole (password-like
   * names excepted): the sandbox's request records, read only by whoever runs that sandbox.
   */
  readonly shortPrefix?: boolean;
}

const sensitive = new Set(SENSITIVE_NAMES);
const fullyMasked = new Set(FULLY_MASKED_NAMES);

/** True when values under `name` (a query/form/JSON/header name) must be masked. */
export function isSensitiveName(name: string): boolean {
  return sensitive.has(name.toLowerCase());
}

/** True for the list's names and any name that looks like one (SECRET_NAME_PATTERN): the sandbox's request records. */
export function isSecretName(name: string): boolean {
  return sensitive.has(name.toLowerCase()) || SECRET_NAME_PATTERN.test(name);
}

function isPasswordLike(lowerName: string): boolean {
  return fullyMasked.has(lowerName) || FULLY_MASKED_PATTERN.test(lowerName);
}

/**
 * The masked form of `value` as it would appear under `name`: `ab12…` for a long value,
 * `***` for a short one or a password-like name. Empty stays empty (nothing to hide, and
 * "sent empty" is useful to see).
 */
export function maskValue(name: string, value: string, options: MaskOptions = {}): string {
  if (value === '') return '';
  const lower = name.toLowerCase();
  if (lower === 'authorization') {
    // Keep the scheme (`Bearer`, `Basic`): it tells what kind of credential went out.
    const space = value.indexOf(' ');
    return space > 0 ? `${value.slice(0, space)} ${MASK}` : MASK;
  }
  if (isPasswordLike(lower)) return MASK;
  if (value.length >= MIN_LENGTH_FOR_PREFIX) return `${value.slice(0, PREFIX_LENGTH)}…`;
  if (options.shortPrefix === true && value.length >= MIN_LENGTH_FOR_SHORT_PREFIX) return `${value.slice(0, SHORT_PREFIX_LENGTH)}…`;
  if (options.shortPrefix === true && value.length < MIN_SECRET_LENGTH) return value;
  return MASK;
}

/**
 * A URL-valued parameter (`https://user:pw@hooks.example/x?apikey=…`) as a record may show it:
 * scheme, host and path, without user info, query or fragment (`?…` says one was there). Any
 * other value as it is.
 */
export function urlWithoutSecrets(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not parseable: keep only what comes before any user info, query or fragment.
    return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1').replace(/[?#].*$/s, '?…');
  }
  const rest = url.search !== '' || url.hash !== '' ? '?…' : '';
  return `${url.protocol}//${url.host}${url.pathname}${rest}`;
}

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Masks sensitive values in an `a=1&b=2` string (a query string without `?`, or a form body).
 * Everything else is kept byte for byte, so the line still shows what was sent.
 */
export function redactForm(form: string | URLSearchParams | Readonly<Record<string, string>>): string {
  const text = typeof form === 'string' ? form : new URLSearchParams(form as Record<string, string>).toString();
  if (text === '') return text;
  return text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = decodeFormComponent(pair.slice(0, eq));
      if (!isSensitiveName(name)) return pair;
      return `${pair.slice(0, eq)}=${maskValue(name, decodeFormComponent(pair.slice(eq + 1)))}`;
    })
    .join('&');
}

/**
 * Masks sensitive query values and any password in the user-info part of a URL.
 * Text that does not parse as a URL is passed through `redactText` instead.
 */
export function redactUrl(url: string | URL): string {
  const text = typeof url === 'string' ? url : url.href;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return redactText(text);
  }
  const userInfo = parsed.password === '' ? '' : `${parsed.username}:${MASK}@`;
  const query = parsed.search === '' ? '' : `?${redactForm(parsed.search.slice(1))}`;
  const authority = userInfo === '' ? parsed.host : `${userInfo}${parsed.host}`;
  return `${parsed.protocol}//${authority}${parsed.pathname}${query}${parsed.hash}`;
}

/**
 * A deep copy of `value` with every sensitive field masked: strings by `maskValue`, arrays of
 * strings item by item (`keys: [...]`), any other non-empty value as `***`. For JSON bodies,
 * headers objects, audit records.
 */
export function redactObject<T>(value: T): T {
  return redactAny(value, undefined, new WeakSet()) as T;
}

function redactAny(value: unknown, name: string | undefined, seen: WeakSet<object>): unknown {
  if (name !== undefined && isSensitiveName(name)) return maskField(name, value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactAny(item, undefined, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactAny(item, key, seen);
  return out;
}

function maskField(name: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (typeof value === 'string') return maskValue(name, value);
  if (Array.isArray(value)) return value.map((item) => maskField(name, item));
  return MASK;
}

// `name=value` pairs inside free text, e.g. a URL echoed in an error page.
const NAME_VALUE_PAIR = new RegExp(`(^|[?&;\\s"'])(${SENSITIVE_NAMES.map(escapeRegExp).join('|')})=([^&\\s"'<>#]*)`, 'gi');

/** True for a value this module already masked (`***`, `ab12…`), so a second pass keeps it. */
function isMasked(value: string): boolean {
  return value === MASK || (value.endsWith('…') && value.length <= PREFIX_LENGTH + 1);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Free text (an error message, a body excerpt) with every occurrence of the given secret values
 * replaced by `***`, plain or URL-encoded, and every `sellerkey=…`-style pair masked. Secrets shorter than
 * 4 characters are ignored: masking them would garble ordinary words.
 */
export function redactText(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  const values = [...new Set([...secrets].filter((s): s is string => typeof s === 'string' && s.length >= 4))]
    // Longest first, so a secret that contains another is masked whole.
    .sort((a, b) => b.length - a.length);
  for (const secret of values) {
    // Fully masked: free text gives no name to tell a seller key from a password.
    for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)])) {
      out = out.split(form).join(MASK);
    }
  }
  return out.replace(NAME_VALUE_PAIR, (match, lead: string, name: string, value: string) =>
    isMasked(value) ? match : `${lead}${name}=${maskValue(name, decodeFormComponent(value))}`,
  );
}

/** A function that applies `redactText` with a fixed list of secrets (handy to pass around). */
export type TextRedactor = (text: string) => string;

/** Builds a `TextRedactor` for the given secret values (undefined entries are skipped). */
export function textRedactor(secrets: Iterable<string | undefined>): TextRedactor {
  const list = [...secrets];
  return (text) => redactText(text, list);
}

/**
 * Field names of stored credentials: a password or a hash of one. Some servers (the 2022
 * open-source seller API) return users' bcrypt hashes in list records; kactl never needs them,
 * so they are dropped before a record is printed or written to a backup.
 */
const PASSWORD_FIELD = /^(pass|passwd|password|pwd|hash)$|pass(word)?_?hash|_hash$/i;

/** A list record without its password and hash fields; anything but a plain object as it is. */
export function withoutPasswordFields(record: unknown): unknown {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  return Object.fromEntries(Object.entries(record).filter(([name]) => !PASSWORD_FIELD.test(name)));
}
