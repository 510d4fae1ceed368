/**
 * JUnit XML of a flows run: one testsuite per file, one testcase per flow. A flow with `fault:`
 * steps lists its faults as the testcase's properties, and a step that failed under a fault says so.
 * The document writer (`junitDocument`) is shared: `kactl sandbox audit --junit` writes one
 * testcase per scenario with it.
 */
import type { FileReport } from './runner.js';

/**
 * What XML 1.0 cannot hold (its Char production): C0 controls other than tab, line feed and
 * carriage return, lone surrogates (a JavaScript string may have them; the file's UTF-8 could
 * not), and U+FFFE and U+FFFF. A server's answer or a flow's name may hold any of them; each
 * becomes U+FFFD, so the report stays well-formed and still shows that something was there.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escape(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One testcase: passed unless `skipped` or `failure` is given. */
export interface JunitCase {
  readonly classname: string;
  readonly name: string;
  readonly ms: number;
  /** Skipped, with the reason when there is one. */
  readonly skipped?: { readonly message?: string };
  readonly failure?: { readonly message: string; readonly type: string; readonly details: string };
  /** Name and value pairs (a flow's faults), before the failure. */
  readonly properties?: readonly { readonly name: string; readonly value: string }[];
  /** What the test printed or did, for people reading the report. */
  readonly systemOut?: string;
}

export interface JunitSuite {
  readonly name: string;
  readonly ms: number;
  readonly cases: readonly JunitCase[];
}

function caseLines(test: JunitCase): string[] {
  const open = `    <testcase classname="${escape(test.classname)}" name="${escape(test.name)}" time="${(test.ms / 1000).toFixed(3)}"`;
  const properties = test.properties === undefined || test.properties.length === 0 ? [] : ['      <properties>', ...test.properties.map((p) => `        <property name="${escape(p.name)}" value="${escape(p.value)}"/>`), '      </properties>'];
  const skipped = test.skipped === undefined ? [] : [test.skipped.message === undefined ? '      <skipped/>' : `      <skipped message="${escape(test.skipped.message)}"/>`];
  const failure = test.failure === undefined ? [] : [`      <failure message="${escape(test.failure.message)}" type="${escape(test.failure.type)}">${escape(test.failure.details)}</failure>`];
  const out = test.systemOut === undefined ? [] : [`      <system-out>${escape(test.systemOut)}</system-out>`];
  const inner = [...properties, ...skipped, ...failure, ...out];
  // A skipped case alone stays on one line, as it always has.
  if (inner.length === 1 && test.skipped !== undefined && test.skipped.message === undefined) return [`${open}><skipped/></testcase>`];
  return inner.length === 0 ? [`${open}/>`] : [`${open}>`, ...inner, '    </testcase>'];
}

/** A JUnit XML document: testsuites named `name`, with the counts of its suites. */
export function junitDocument(name: string, suites: readonly JunitSuite[]): string {
  const count = (suite: JunitSuite, what: 'failure' | 'skipped'): number => suite.cases.filter((test) => test[what] !== undefined).length;
  const tests = suites.reduce((n, suite) => n + suite.cases.length, 0);
  const failures = suites.reduce((n, suite) => n + count(suite, 'failure'), 0);
  const time = suites.reduce((n, suite) => n + suite.ms, 0) / 1000;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="${escape(name)}" tests="${tests}" failures="${failures}" time="${time.toFixed(3)}">`];
  for (const suite of suites) {
    const skipped = count(suite, 'skipped');
    lines.push(`  <testsuite name="${escape(suite.name)}" tests="${suite.cases.length}" failures="${count(suite, 'failure')}"${skipped > 0 ? ` skipped="${skipped}"` : ''} time="${(suite.ms / 1000).toFixed(3)}">`);
    for (const test of suite.cases) lines.push(...caseLines(test));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** A flow's testcase: its faults as properties, the first failed step as the failure. */
function flowCase(file: string, flow: FileReport['flows'][number]): JunitCase {
  const faults = [...new Set(flow.steps.flatMap((step) => step.faults ?? []))];
  const properties = faults.map((fault) => ({ name: 'fault', value: fault }));
  const base = { classname: file, name: flow.name, ms: flow.ms };
  const failedStep = flow.steps.find((step) => !step.passed);
  if (!failedStep) return flow.skipped ? { ...base, skipped: {} } : { ...base, properties };
  const under = failedStep.faults === undefined ? '' : `, with fault ${failedStep.faults.join(', ')}`;
  const message = `step ${failedStep.index + 1} (${failedStep.label}${under}): ${failedStep.failures.join('; ')}`;
  const details = [message, `answer: ${JSON.stringify(failedStep.answer ?? null, null, 2)}`, `exit code: ${failedStep.exit}`].join('\n');
  return { ...base, properties, failure: { message, type: 'expectation', details } };
}

export function junitXml(files: readonly FileReport[]): string {
  return junitDocument(
    'kactl test',
    files.map((file) => ({ name: file.file, ms: file.ms, cases: file.flows.map((flow) => flowCase(file.file, flow)) })),
  );
}
