/**
 * A fake seller API on 127.0.0.1 that records every request and answers by `type`, plus a
 * runner of kactl in-process pointed at it (temp config and data folder, env settings only).
 */
import { json, startHttpServer } from '../api/helpers/servers.js';
import type { Recorded, Reply, TestServer } from '../api/helpers/servers.js';
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

/** Answers `{success:true, message:"did <type>"}` to any type without an answer of its own. */
export async function fakeSeller(answers: Answers = {}): Promise<FakeSeller> {
  const server = await startHttpServer((req) => {
    const params = Object.fromEntries(req.params);
    const answer = answers[params.type ?? ''];
    return answer ? answer(req, params) : json({ success: true, message: `did ${params.type}` });
  });
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

/** The params of a request without the two every request has. */
export function withoutAuth(params: Record<string, string>): Record<string, string> {
  const { sellerkey: _key, ...rest } = params;
  return rest;
}

export { json };
