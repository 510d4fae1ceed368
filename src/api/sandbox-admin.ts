/**
 * Calls to a sandbox's admin routes (`/sandbox/outbox`, `/sandbox/clock`), authenticated with
 * the admin token `kactl sandbox start` saved in the sandbox profile (or `--admin-token`).
 */
import type { Context } from '../../context.js';
import { AuthError, NetworkError, UsageError } from '../../errors.js';

export interface AdminRequest {
  method: 'GET' | 'POST';
  path: string;
  form?: Record<string, string>;
  /** Overrides the token saved in the profile. */
  adminToken?: string;
}

export async function sandboxAdminRequest(ctx: Context, request: AdminRequest): Promise<unknown> {
  const settings = await ctx.settings();
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) throw new UsageError('No sandbox URL is configured; start one with `kactl sandbox start` or pass --base-url.');
  const token = request.adminToken ?? (await ctx.currentProfile())?.adminToken;
  if (!token) throw new UsageError('No admin token: pass --admin-token, or use the profile `kactl sandbox start` saved (--profile sandbox).');
  const transport = await ctx.transport();
  const response = await transport.request({
    method: request.method,
    url: new URL(request.path, `${baseUrl}/`),
    headers: { authorization: `Bearer ${token}` },
    ...(request.form ? { form: request.form } : {}),
    secrets: [token],
  });
  if (response.status === 401 || response.status === 403) throw new AuthError('The sandbox refused the admin token.');
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new NetworkError(`${baseUrl} answered ${request.path} with something that is not JSON (HTTP ${response.status}); is it a kactl sandbox?`);
  }
  const message = (body as { message?: unknown } | null)?.message;
  // A 400 is the sandbox refusing what we asked (an offset past 100 years): the input's fault.
  if (response.status === 400 && typeof message === 'string') throw new UsageError(`The sandbox refused ${request.path}: ${message}.`);
  if (response.status !== 200) {
    throw new NetworkError(`The sandbox answered ${request.path} with HTTP ${response.status}${typeof message === 'string' ? `: ${message}` : ''}.`);
  }
  return body;
}
