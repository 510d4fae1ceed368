/** The typed error a promise rejects with; fails the test if it resolves or throws something else. */
import { expect } from 'vitest';
import { KactlError } from '../../../../src/errors.js';

export async function caught(promise: Promise<unknown>): Promise<KactlError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KactlError);
  return error as KactlError;
}
