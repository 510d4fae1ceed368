/**
 * Calls to a sandbox's admin routes (`/sandbox/outbox`, `/sandbox/clock`, `/sandbox/requests`),
 * authenticated with the admin token: `--admin-token`, else `KACTL_ADMIN_TOKEN` (what
 * `kactl sandbox exec` gives its command, which has no profile), else the one `kactl sandbox
 * start` saved in the sandbox profile.
 */
import type { Context } from '../../context.js';
import { readEnv } from '../../env.js';
import { AuthError, NetworkError, UsageError } from '../../errors.js';

export interface AdminRequest {
  method: 'GET' | 'POST';
  path: string;
  form?: Record<string, string>;
  /** Overrides the token saved in the profile. */
  adminToken?: string;
}

/** The sandbox's base URL and admin token: the flag, else the variable, else the profile's. */
async function adminTarget(ctx: Context, adminToken: string | undefined): Promise<{ baseUrl: string; token: string }> {
  const settings = await ctx.settings();
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) throw new UsageError('No sandbox URL is configured; start one with `kactl sandbox start` or pass --base-url.');
  const token = adminToken ?? readEnv(ctx.env, 'KACTL_ADMIN_TOKEN') ?? (await ctx.currentProfile())?.adminToken;
  if (!token) throw new UsageError('No admin token: pass --admin-token, set KACTL_ADMIN_TOKEN, or use the profile `kactl sandbox start` saved (--profile sandbox).');
  return { baseUrl, token };
}

/**
 * A GET of an admin route answered with server-sent events, read as they arrive: the body's
 * pieces. A refused token is an AuthError; any other status than 200 a NetworkError.
 */
export async function sandboxAdminStream(ctx: Context, request: { path: string; adminToken?: string; idleMs: number }): Promise<AsyncIterable<Buffer>> {
  const { baseUrl, token } = await adminTarget(ctx, request.adminToken);
  const transport = await ctx.transport();
  const answer = await transport.stream({
    url: new URL(request.path, `${baseUrl}/`),
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    secrets: [token],
    idleMs: request.idleMs,
  });
  if (answer.status === 200 && (answer.headers['content-type'] ?? '').startsWith('text/event-stream')) return answer.body;
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(chunk);
  if (answer.status === 401 || answer.status === 403) throw new AuthError('The sandbox refused the admin token.');
  const message = messageOf(Buffer.concat(chunks));
  if (answer.status === 400 && message !== undefined) throw new UsageError(`The sandbox refused ${request.path}: ${message}.`);
  throw new NetworkError(`The sandbox answered ${request.path} with HTTP ${answer.status}${message === undefined ? '; is it a kactl sandbox new enough to record requests?' : `: ${message}`}.`);
}

function messageOf(body: Buffer): string | undefined {
  try {
    const message = (JSON.parse(body.toString('utf8')) as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

export async function sandboxAdminRequest(ctx: Context, request: AdminRequest): Promise<unknown> {
  const { baseUrl, token } = await adminTarget(ctx, request.adminToken);
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
