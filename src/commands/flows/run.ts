/** The `kactl test` action: load every file first (a bad file runs nothing), run, report. */
import fs from 'node:fs';
import type { Context } from '../../context.js';
import { ExitCode, KactlError } from '../../errors.js';
import type { FileReport, StepReport } from '../../flows/runner.js';
import { junitXml } from '../../flows/junit.js';
import { checkFlowSteps } from '../../flows/step-check.js';
import { FLOWS_SCHEMA } from '../../state/schema.js';
import type { RunKactl } from '../../flows/run-kactl.js';

export async function testRun(ctx: Context, files: readonly string[], options: { junit?: string; bail?: boolean; runKactl: RunKactl }): Promise<void> {
  const { loadFile } = await import('../../state/load.js');
  const { runFile } = await import('../../flows/runner.js');
  // A seed is a state body: `!env NAME` reads the environment, `$$` is `$` (src/state/load.ts).
  const loaded = files.map((file) => loadFile(file, FLOWS_SCHEMA, { env: ctx.env, stateAt: [['seed']] }));
  // Operation and parameter names too, so a slip is refused before the first file runs.
  for (const file of loaded) checkFlowSteps(file);
  const json = ctx.output.wantsJson;
  const mark = (passed: boolean): string => (ctx.io.isStdoutTTY ? (passed ? '✓' : '✗') : passed ? 'ok' : 'FAIL');
  const reports: FileReport[] = [];
  let stop = false;
  for (const file of loaded) {
    if (stop) break;
    if (!json) ctx.output.line(file.file);
    const report = await runFile(ctx, file.file, file.value, {
      bail: options.bail ?? false,
      runKactl: options.runKactl,
      onStep: (_flow: string, step: StepReport) => {
        if (json) return;
        const why = step.passed ? '' : `: ${step.failures.join('; ')}`;
        const faulted = step.faults === undefined ? '' : ` (with fault ${step.faults.join(', ')})`;
        ctx.output.line(`    ${mark(step.passed)} ${step.label}${faulted}${why}`);
      },
      onFlow: (flow) => {
        if (json) return;
        if (flow.skipped) ctx.output.line(`  - ${flow.name} (skipped: --bail)`);
        else ctx.output.line(`  ${mark(flow.passed)} ${flow.name} (${flow.steps.length} step${flow.steps.length === 1 ? '' : 's'}, ${flow.ms} ms)`);
      },
    });
    reports.push(report);
    if (options.bail && report.flows.some((f) => !f.passed && !f.skipped)) stop = true;
  }
  const flows = reports.flatMap((r) => r.flows);
  const failed = flows.filter((f) => !f.passed && !f.skipped).length;
  const skipped = flows.filter((f) => f.skipped).length;
  if (options.junit) {
    try {
      fs.writeFileSync(options.junit, junitXml(reports));
    } catch (error) {
      throw new KactlError(`Could not write ${options.junit} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, 'FAILURE');
    }
  }
  if (json) {
    ctx.output.json({ passed: failed === 0, flows: flows.length, failed, skipped, files: reports });
  } else {
    const summary = `${flows.length} flow${flows.length === 1 ? '' : 's'}: ${flows.length - failed - skipped} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}.`;
    ctx.output.line(summary);
  }
  if (failed > 0) ctx.exitCode = ExitCode.failure;
}
