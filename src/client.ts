/**
 * `kactl/client`: a typed client of the client API (1.3 and 1.2) of one application, with the
 * signature checks, retries and errors of the CLI (docs/library.md).
 */
export { createClient, CLIENT_METHODS } from './api/kactl-client.js';
export type { CallOptions, ClientOptions, KactlClient } from './api/kactl-client.js';
export type {
  AnswerBase,
  AppInfo,
  BlacklistAnswer,
  ChatMessage,
  ChatgetAnswer,
  CheckAnswer,
  FetchOnlineAnswer,
  FetchStatsAnswer,
  FileAnswer,
  GetvarAnswer,
  InitAnswer,
  LoginAnswer,
  MagicLinkCheckAnswer,
  MessageAnswer,
  SubscriptionItem,
  TwoFactorEnableAnswer,
  UserInfo,
  VarAnswer,
  WebhookAnswer,
} from './api/client-answers.js';
export type { ClientAnswer, ParamValue } from './api/client-api.js';
export type { Answer } from './api/answer.js';
export { memorySessionStore } from './api/session.js';
export { fileAnswerMemory } from './api/file-answer-memory.js';
export type { FileAnswerMemoryOptions } from './api/file-answer-memory.js';
export type { AnswerMemory } from './api/verify.js';
export type { SessionStore, StoredSession } from './api/session.js';
export type { ClientApiVersion } from './api/client-catalog/index.js';
export type { Logger } from './api/logger.js';
export {
  ApiFailure,
  AuthError,
  InterruptedError,
  isKactlError,
  KactlError,
  NetworkError,
  RateLimitError,
  SignatureError,
  UsageError,
} from './api/errors.js';
export { BadResponseError, TransportError } from './api/api-errors.js';
