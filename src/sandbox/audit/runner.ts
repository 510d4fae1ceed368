/**
 * `audit()`: runs a program once per scenario against one sandbox (kactl/sandbox's startSandbox,
 * in this process, in memory), put back to the same starting state before each by a snapshot
 * restore rather than a new sandbox, so a whole audit takes seconds. The starting state is the
 * tester's seed plus the audit's customer (identity.ts). The sandbox is closed at the end, and
 * nothing of a run outlives it (program-run.ts).
 */
import { InterruptedError } from '../../api/errors.js';
import { startSandbox } from '../start.js';
import { createCustomer } from './identity.js';
import { auditSettings, type AuditOptions } from './options.js';
import { countsOf, summaryOf, worstFinding, type AuditReport, type AuditScenarioResult } from './report.js';
import { runScenario } from './run-scenario.js';

export async function audit(options: AuditOptions): Promise<AuditReport> {
  const settings = auditSettings(options);
  const now = Date.now;
  const started = now();
  // The sandbox's clock, turned back only while a scenario records an old login (scenarios.ts, stale).
  let shiftMs = 0;
  const shiftClock = (ms: number): void => {
    shiftMs = ms;
  };
  const sandbox = await startSandbox({ ...(options.seed === undefined ? {} : { seed: options.seed }), env: options.env ?? {}, clock: () => now() + shiftMs });
  const results: AuditScenarioResult[] = [];
  try {
    const seller = sandbox.seller();
    const customer = await createCustomer(seller);
    const start = await sandbox.snapshot();
    let hwid: string | undefined;
    for (const [index, def] of settings.scenarios.entries()) {
      if (options.signal?.aborted === true) throw new InterruptedError();
      const ran = await runScenario(def, { sandbox, seller, settings, customer, start, hwid, cwd: options.cwd, signal: options.signal, now, shiftClock });
      hwid ??= ran.hwid;
      results.push(ran.result);
      options.onScenario?.(ran.result, index, settings.scenarios.length);
    }
  } finally {
    await sandbox.close();
  }
  const counts = countsOf(results);
  const worst = worstFinding(results);
  return {
    passed: counts.failed === 0,
    summary: summaryOf(counts, worst),
    worst,
    api: settings.api,
    command: [...settings.command],
    durationMs: now() - started,
    counts,
    scenarios: results,
  };
}
