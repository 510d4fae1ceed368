/**
 * The library's errors name no command (src/api/errors.ts); the CLI adds its next steps and its
 * wording (src/error-hints.ts). Each case here is an error as the library throws it and the exact
 * lines the CLI printed for it before the split, so the split changed nothing a user sees.
 */
import { describe, expect, it } from 'vitest';
import { ApiFailure, AuthError, KactlError, RateLimitError, SignatureError, UsageError, type AuthReason } from '../../../src/api/errors.js';
import { BadResponseError, TransportError } from '../../../src/api/api-errors.js';
import { cliHints, cliMessage } from '../../../src/error-hints.js';
import { EXIT_CODE_OF, errorCodeForExit, exitCodeOf, ExitCode } from '../../../src/errors.js';
import { PUBLIC_KEY_FORMAT } from '../../../src/api/verify.js';

describe('the CLI words the library errors its own way', () => {
  it('a missing client session names `kactl client init`; the library names init()', () => {
    const error = new AuthError('There is no client session; call init() first.', { reason: 'no-session' });
    expect(cliMessage(error)).toBe('There is no client session; run `kactl client init` first.');
    expect(exitCodeOf(error)).toBe(ExitCode.auth);
  });

  const auth: [AuthReason, string][] = [
    ['session-ended', 'The session has ended; run `kactl client init` to start a new one.'],
    ['session-unvalidated', 'Log in first: `kactl client login`, `kactl client license` or `kactl client register`.'],
    ['no-seller-key', 'Set one in the profile or with KACTL_SELLER_KEY.'],
    ['seller-key-missing', 'Set a seller key in the profile or KACTL_SELLER_KEY.'],
    ['seller-key-length', "A seller key has exactly 32 characters; check the profile's seller key or KACTL_SELLER_KEY."],
    ['unknown-seller-key', 'No application on this server has that seller key: copy it again from the seller settings (it may have been reset) and check the base URL.'],
    ['no-seller-plan', "The application owner's account needs the seller plan to use the seller API."],
    ['ip-restricted', "This seller key only works from allowed IPs: add this machine's IP in the seller settings, or run from an allowed machine."],
    ['app-banned', 'The application is banned on this server; its seller API refuses every call.'],
    ['seller-key-refused', "Check the profile's seller key and the base URL."],
  ];
  it.each(auth)('AuthError %s gets its hint', (reason, hint) => {
    expect(cliHints(new AuthError('refused', { reason }))).toEqual([hint]);
  });

  it.each([
    ['timeout', 'Raise the limit with --timeout if the server is just slow.'],
    ['refused', 'Is the server running? For the sandbox, start it with `kactl sandbox start`.'],
    ['dns', 'Check the base URL and your network.'],
    ['tls', "A kactl sandbox started with --tls: use the profile it saved (it trusts the sandbox's authority), or set NODE_EXTRA_CA_CERTS to the file `kactl sandbox ca --path` prints."],
    ['redirect', 'If that address is the right server, set it as the base URL (e.g. https:// instead of http://).'],
  ] as const)('a %s transport failure gets its hint', (kind, hint) => {
    expect(cliHints(new TransportError('failed', kind, 'host:1'))).toEqual([hint]);
  });
  it('a reset connection gets none', () => {
    expect(cliHints(new TransportError('reset', 'reset', 'host:1'))).toEqual([]);
  });

  it('signatures: each failure its hint, by scheme', () => {
    const hint = (reason: 'unsigned' | 'stale' | 'mismatch' | 'enckey-refused' | 'bad-timestamp', scheme: 'ed25519' | 'hmac') => cliHints(new SignatureError('bad', { reason, scheme }));
    expect(hint('unsigned', 'ed25519')).toEqual(["A 1.3 server signs every answer; this one may not be the server the profile's public key belongs to."]);
    expect(hint('unsigned', 'hmac')).toEqual([]);
    expect(hint('bad-timestamp', 'ed25519')).toEqual([]);
    expect(hint('stale', 'ed25519')).toEqual(["Check this computer's clock, or widen the window with the profile's signatureWindow setting."]);
    expect(hint('mismatch', 'ed25519')).toEqual(["The answer was changed on the way, or the profile's public key is not this server's key."]);
    expect(hint('mismatch', 'hmac')).toEqual(["The profile's app secret may be wrong, or the answer was changed on the way."]);
    expect(hint('enckey-refused', 'hmac')).toEqual(['Run `kactl client init` again to open a new session.']);
  });

  it('bad answers: the base URL for an HTML page or a 404, the profile for an unknown app', () => {
    expect(cliHints(new BadResponseError('html', { kind: 'html', status: 200, excerpt: '' }))).toEqual(["Check the base URL: it should be the server's root, e.g. https://keyauth.win."]);
    expect(cliHints(new BadResponseError('404', { kind: 'not-json', status: 404, excerpt: '' }))).toEqual(["Check the base URL: it should be the server's root, e.g. https://keyauth.win."]);
    expect(cliHints(new BadResponseError('No application named "x" with owner id y exists', { kind: 'keyauth-invalid', status: 200, excerpt: '' }))).toEqual([
      "Check the profile's appName and ownerid (10 characters), and that the base URL is the right server.",
    ]);
    expect(cliHints(new BadResponseError('cut', { kind: 'truncated-json', status: 200, excerpt: '' }))).toEqual([]);
  });

  it('rate limits: a wait only once the retries ran out', () => {
    expect(cliHints(new RateLimitError('Still rate limited after 3 tries. Server said: slow down'))).toEqual([
      "Wait a minute before the next command; pacing (the profile's sellerRate) keeps seller calls under the budget.",
    ]);
    expect(cliHints(new RateLimitError('Rate limited: the server asks to wait 10 min'))).toEqual([]);
  });

  it('an outdated version: the next steps are the CLI\'s (the download one only with a link), the library says only what happened', () => {
    const withLink = new ApiFailure('invalidver: the server wants another version than 1.0. Download link: https://example.test/new', { success: false, message: 'invalidver', download: 'https://example.test/new' }, 200, { reason: 'outdated-version' });
    const initAgain = 'Or init as the version the app wants: kactl client init --app-version VERSION (`kactl app details` shows it; `kactl profile add NAME --app-version VERSION` keeps it)';
    expect(withLink.hints).toEqual([]);
    expect(cliHints(withLink)).toEqual(['Download the new version as an outdated program would: kactl client update --out FILE', initAgain]);
    const noLink = new ApiFailure('invalidver: …', { success: false, message: 'invalidver', download: '' }, 200, { reason: 'outdated-version' });
    expect(cliHints(noLink)).toEqual([initAgain]);
    expect(cliHints(new ApiFailure('Invalid username', { success: false, message: 'Invalid username' }, 200))).toEqual([]);
  });

  it('an unsigned 1.2 failure carrying more than its message: the CLI names the profile\'s app secret', () => {
    const error = new SignatureError('The server\'s failure answer is not signed, yet it carries "download"; when the app secret is known, only signed answers are acted on.', { reason: 'unsigned', scheme: 'hmac' });
    expect(cliMessage(error)).toBe('The server\'s failure answer is not signed, yet it carries "download"; kactl acts only on signed answers when the profile has the app secret.');
    expect(cliMessage(new SignatureError('The answer is not signed.', { reason: 'unsigned', scheme: 'ed25519' }))).toBe('The answer is not signed.');
  });

  it('an unsigned 1.2 failure: the CLI says it acts on nothing but the message', () => {
    const error = new ApiFailure('Session not found.', { success: false, message: 'Session not found.' }, 200, { reason: 'unsigned' });
    expect(error.hints).toEqual([]);
    expect(cliHints(error)).toEqual(['The answer was not signed, so kactl shows its message and acts on nothing else in it.']);
  });

  it('a malformed public key says where the CLI takes one', () => {
    expect(cliHints(new UsageError(PUBLIC_KEY_FORMAT))).toEqual(["`kactl sandbox start` prints the sandbox's key; set it with --public-key or KACTL_PUBLIC_KEY."]);
  });

  it("an error's own hints come first", () => {
    expect(cliHints(new AuthError('x', { reason: 'session-ended', hints: ['own'] }))).toEqual(['own', 'The session has ended; run `kactl client init` to start a new one.']);
  });

  it('every code has an exit code, and an exit code maps back to a code', () => {
    expect(EXIT_CODE_OF).toEqual({
      FAILURE: 1, PARTIAL: 1, SETUP: 1, USAGE: 2, INPUT_REQUIRED: 2, CANCELLED: 2, AUTH: 3, NETWORK: 4, BAD_ANSWER: 4, SIGNATURE: 5, RATE_LIMITED: 6, INTERRUPTED: 130,
    });
    expect(errorCodeForExit(3)).toBe('AUTH');
    expect(errorCodeForExit(77)).toBe('FAILURE');
    expect(exitCodeOf(new KactlError('x', 'BAD_ANSWER'))).toBe(4);
  });
});
