/**
 * What the CLI adds to the library's errors: the `kactl …` next steps and the names of its
 * flags, profile settings and variables. The library's errors carry a code and, where the CLI
 * needs to tell cases apart, a `reason` or `kind` (src/api/errors.ts); this table turns those
 * into the lines `main` prints under the message. Loaded with `main`, so it imports no module of
 * the protocol library (cold start): it reads the errors' fields by name.
 */
import type { KactlError } from './api/errors.js';

const SELLER_KEY_LENGTH = 'A seller key has exactly 32 characters; check the profile\'s seller key or KACTL_SELLER_KEY.';

/** AuthError reasons → hints. */
const AUTH_HINTS: Readonly<Record<string, string>> = {
  'session-ended': 'The session has ended; run `kactl client init` to start a new one.',
  'session-unvalidated': 'Log in first: `kactl client login`, `kactl client license` or `kactl client register`.',
  'no-seller-key': 'Set one in the profile or with KACTL_SELLER_KEY.',
  'seller-key-missing': 'Set a seller key in the profile or KACTL_SELLER_KEY.',
  'seller-key-length': SELLER_KEY_LENGTH,
  'unknown-seller-key': 'No application on this server has that seller key: copy it again from the seller settings (it may have been reset) and check the base URL.',
  'no-seller-plan': 'The application owner\'s account needs the seller plan to use the seller API.',
  'ip-restricted': 'This seller key only works from allowed IPs: add this machine\'s IP in the seller settings, or run from an allowed machine.',
  'app-banned': 'The application is banned on this server; its seller API refuses every call.',
  'seller-key-refused': 'Check the profile\'s seller key and the base URL.',
};

/** TransportError kinds → hints. */
const TRANSPORT_HINTS: Readonly<Record<string, string>> = {
  timeout: 'Raise the limit with --timeout if the server is just slow.',
  refused: 'Is the server running? For the sandbox, start it with `kactl sandbox start`.',
  dns: 'Check the base URL and your network.',
  tls: "A kactl sandbox started with --tls: use the profile it saved (it trusts the sandbox's authority), or set NODE_EXTRA_CA_CERTS to the file `kactl sandbox ca --path` prints.",
  redirect: 'If that address is the right server, set it as the base URL (e.g. https:// instead of http://).',
};

/** SignatureError `scheme:reason` → hints. */
const SIGNATURE_HINTS: Readonly<Record<string, string>> = {
  'ed25519:unsigned': 'A 1.3 server signs every answer; this one may not be the server the profile\'s public key belongs to.',
  'ed25519:stale': 'Check this computer\'s clock, or widen the window with the profile\'s signatureWindow setting.',
  'ed25519:mismatch': 'The answer was changed on the way, or the profile\'s public key is not this server\'s key.',
  'hmac:mismatch': 'The profile\'s app secret may be wrong, or the answer was changed on the way.',
  'hmac:enckey-refused': 'Run `kactl client init` again to open a new session.',
};

/** Messages the CLI words in its own terms (the library's names a method). */
const CLI_MESSAGES: Readonly<Record<string, string>> = {
  'AUTH:no-session': 'There is no client session; run `kactl client init` first.',
};

/** The public-key sentence of src/api/verify.ts (PUBLIC_KEY_FORMAT), which the CLI says where to fix. */
const PUBLIC_KEY_SENTENCE = /^The public key must be 64 hex characters/;

interface Fields {
  readonly reason?: unknown;
  readonly body?: unknown;
  readonly kind?: unknown;
  readonly scheme?: unknown;
  readonly status?: unknown;
}

/**
 * The end of the library's sentence for an unsigned 1.2 failure that carries more than its
 * message (src/api/client-api.ts), and the CLI's, which names where the app secret comes from.
 */
const UNSIGNED_FAILURE_END = 'when the app secret is known, only signed answers are acted on.';
const UNSIGNED_FAILURE_END_CLI = 'kactl acts only on signed answers when the profile has the app secret.';

/** The sentence the CLI prints for an error: the library's, or the CLI's wording of the same case. */
export function cliMessage(error: KactlError): string {
  const { reason, scheme } = error as Fields;
  if (error.code === 'SIGNATURE' && scheme === 'hmac' && reason === 'unsigned' && error.message.endsWith(UNSIGNED_FAILURE_END)) {
    return error.message.slice(0, -UNSIGNED_FAILURE_END.length) + UNSIGNED_FAILURE_END_CLI;
  }
  return CLI_MESSAGES[`${error.code}:${String(reason)}`] ?? error.message;
}

/** The lines printed under the message: the error's own hints, then the CLI's for its case. */
export function cliHints(error: KactlError): readonly string[] {
  const added = error.code === 'FAILURE' ? failureHints(error) : [addedHint(error)].filter((hint) => hint !== undefined);
  return added.length === 0 ? error.hints : [...error.hints, ...added];
}

/** ApiFailure reasons → hints: the next steps after a refused init, and what an unsigned failure is worth. */
function failureHints(error: KactlError): readonly string[] {
  const { reason, body } = error as Fields;
  switch (reason) {
    case 'outdated-version': {
      // Fetch the new build as the program would, or test as the version the app wants.
      const download = typeof body === 'object' && body !== null ? (body as { download?: unknown }).download : undefined;
      return [
        ...(typeof download === 'string' && download !== '' ? ['Download the new version as an outdated program would: kactl client update --out FILE'] : []),
        'Or init as the version the app wants: kactl client init --app-version VERSION (`kactl app details` shows it; `kactl profile add NAME --app-version VERSION` keeps it)',
      ];
    }
    case 'unsigned':
      return ['The answer was not signed, so kactl shows its message and acts on nothing else in it.'];
    default:
      return [];
  }
}

function addedHint(error: KactlError): string | undefined {
  const { reason, kind, scheme, status } = error as Fields;
  switch (error.code) {
    case 'AUTH':
      return typeof reason === 'string' ? AUTH_HINTS[reason] : undefined;
    case 'SIGNATURE':
      return SIGNATURE_HINTS[`${String(scheme)}:${String(reason)}`];
    case 'NETWORK':
      return typeof kind === 'string' ? TRANSPORT_HINTS[kind] : undefined;
    case 'BAD_ANSWER':
      // A client API's KeyAuth_Invalid names the application it looked for (src/api/client-api.ts).
      if (kind === 'keyauth-invalid' && error.message.startsWith('No application named')) {
        return 'Check the profile\'s appName and ownerid (10 characters), and that the base URL is the right server.';
      }
      return kind === 'html' || status === 404 ? 'Check the base URL: it should be the server\'s root, e.g. https://keyauth.win.' : undefined;
    case 'RATE_LIMITED':
      // The library's sentences (src/api/retry.ts): the tries ran out, or none were allowed.
      if (error.message.startsWith('Rate limited, and no retries')) return 'KACTL_RETRIES=0 (what kactl sandbox exec sets for its command) lets kactl try only once; KACTL_RETRIES=2 waits the limit out as usual.';
      return error.message.startsWith('Still rate limited') ? 'Wait a minute before the next command; pacing (the profile\'s sellerRate) keeps seller calls under the budget.' : undefined;
    case 'USAGE':
      return PUBLIC_KEY_SENTENCE.test(error.message) ? '`kactl sandbox start` prints the sandbox\'s key; set it with --public-key or KACTL_PUBLIC_KEY.' : undefined;
    default:
      return undefined;
  }
}
