/**
 * `kactl/seller`: a typed client of the seller API, every operation of the catalog with its
 * parameters and answer, paced to the key's budget, and the bulk engine of license creation
 * (docs/library.md).
 */
export { createSeller } from './api/kactl-seller.js';
export type { KactlSeller, SellerCallArgs, SellerCallOptions, SellerOptions } from './api/kactl-seller.js';
export type { SellerAnswer, SellerAnswerBase, SellerKeysAnswer, SellerOperations, SellerParams, SellerRecordAnswer, SellerType, WireValue } from './api/seller-operations.js';
export { KEYS_PER_CALL, KEYS_PER_DAY } from './api/bulk-licenses.js';
export type { CreatedLicenses, CreateLicensesOptions, LicenseRequest } from './api/bulk-licenses.js';
export { DEFAULT_SELLER_CALLS_PER_MINUTE } from './api/pacer.js';
export type { Answer } from './api/answer.js';
export type { SellerParamValue } from './api/seller-api.js';
export type { Logger } from './api/logger.js';
export {
  ApiFailure,
  AuthError,
  InterruptedError,
  isKactlError,
  KactlError,
  NetworkError,
  PartialFailure,
  RateLimitError,
  UsageError,
} from './api/errors.js';
export { BadResponseError, TransportError } from './api/api-errors.js';
