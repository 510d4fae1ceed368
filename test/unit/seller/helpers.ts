/**
 * A fake seller API on 127.0.0.1 that records every request and answers by `type`, plus a
 * runner of kactl in-process pointed at it (temp config and data folder, env settings only).
 * Strict, like gh's httpmock registry: a request of a type without an answer, or an answer no
 * request used, fails the test (checked after it by servers.ts).
 */
import { json, startHttpServer } from '../api/helpers/servers.js';
import type { Recorded, Reply, ServerOptions, TestServer } from '../api/helpers/servers.js';
import { runMain } from '../../helpers/run-main.js';
import type { RunMainOptions, RunResult } from '../../helpers/run-main.js';
import { tempDir } from '../../helpers/temp-dir.js';

export const SELLER_KEY = 'k'.repeat(16) + '0123456789abcdef';

export type Answers = Readonly<Record<string, (req: Recorded, params: Record<string, string>) => Reply>>;

export interface FakeSeller {
  server: TestServer;
  configDir: string;
  /** Requests whose `type` is one of `types`, or all of them. */
  sent(...types: string[]): Record<string, string>[];
  run(args: readonly string[], options?: RunMainOptions): Promise<RunResult>;
}

/** The plain success answer: `{success:true, message:"did <type>"}`. */
export function ok(_req: Recorded, params: Record<string, string>): Reply {
  return json({ success: true, message: `did ${params.type}` });
}

/** `unused: true` for a test that checks nothing is sent (no answers then). */
export async function fakeSeller(answers: Answers = {}, options: Pick<ServerOptions, 'unused'> = {}): Promise<FakeSeller> {
  const used = new Set<string>();
  const server = await startHttpServer(
    (req) => {
      const params = Object.fromEntries(req.params);
      const type = params.type ?? '';
      const answer = answers[type];
      if (!answer) throw new Error(`no answer for type=${type}`);
      used.add(type);
      return answer(req, params);
    },
    { ...options, verify: () => Object.keys(answers).filter((type) => !used.has(type)).map((type) => `answer for type=${type} never used`) },
  );
  const configDir = tempDir('kactl-seller-');
  return {
    server,
    configDir,
    sent: (...types) => server.requests.map((r) => Object.fromEntries(r.params)).filter((p) => types.length === 0 || types.includes(p.type ?? '')),
    run: (args, options = {}) =>
      runMain(args, {
        ...options,
        env: { KACTL_CONFIG_DIR: configDir, KACTL_BASE_URL: server.baseUrl, KACTL_SELLER_KEY: SELLER_KEY, ...options.env },
      }),
  };
}

/**
 * `fetchallkeys` of an app with no keys: what `licenses create` reads before its first call, to
 * tell later which keys a call whose answer was lost made.
 */
export function noKeys(): Reply {
  return json({ success: false, message: 'No keys found' }, 406);
}

/** The params of a request without the two every request has. */
export function withoutAuth(params: Record<string, string>): Record<string, string> {
  const { sellerkey: _key, ...rest } = params;
  return rest;
}

export { json };
