/**
 * `kactl`: what the library's entry points share — the errors every call may throw, each with a
 * stable `code`, and the common types. The clients and the sandbox are in `kactl/client`,
 * `kactl/seller` and `kactl/sandbox` (docs/library.md); this module loads none of them.
 */
export {
  ApiFailure,
  AuthError,
  InterruptedError,
  isKactlError,
  KactlError,
  NetworkError,
  PartialFailure,
  RateLimitError,
  SetupError,
  SignatureError,
  UsageError,
} from './api/errors.js';
export type { AuthReason, FailureReason, KactlErrorCode, KactlErrorOptions, SignatureReason } from './api/errors.js';
export { BadResponseError, RateLimitedAnswer, TransportError } from './api/api-errors.js';
export type { BadResponseKind, TransportFailureKind } from './api/api-errors.js';
export type { Logger } from './api/logger.js';
export type { SessionStore, StoredSession } from './api/session.js';
export type { ClientApiVersion } from './api/client-catalog/index.js';
