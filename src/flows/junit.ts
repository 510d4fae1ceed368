/**
 * JUnit XML of a flows run: one testsuite per file, one testcase per flow. A flow with `fault:`
 * steps lists its faults as the testcase's properties, and a step that failed under a fault says so.
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

export function junitXml(files: readonly FileReport[]): string {
  const tests = files.reduce((n, f) => n + f.flows.length, 0);
  const failures = files.reduce((n, f) => n + f.flows.filter((flow) => !flow.passed).length, 0);
  const time = files.reduce((n, f) => n + f.ms, 0) / 1000;
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="kactl test" tests="${tests}" failures="${failures}" time="${time.toFixed(3)}">`];
  for (const file of files) {
    const failed = file.flows.filter((flow) => !flow.passed).length;
    lines.push(`  <testsuite name="${escape(file.file)}" tests="${file.flows.length}" failures="${failed}" time="${(file.ms / 1000).toFixed(3)}">`);
    for (const flow of file.flows) {
      const open = `    <testcase classname="${escape(file.file)}" name="${escape(flow.name)}" time="${(flow.ms / 1000).toFixed(3)}"`;
      const failedStep = flow.steps.find((step) => !step.passed);
      const faults = [...new Set(flow.steps.flatMap((step) => step.faults ?? []))];
      const properties = faults.length === 0 ? [] : ['      <properties>', ...faults.map((fault) => `        <property name="fault" value="${escape(fault)}"/>`), '      </properties>'];
      if (!failedStep) {
        if (flow.skipped) lines.push(`${open}><skipped/></testcase>`);
        else lines.push(...(properties.length === 0 ? [`${open}/>`] : [`${open}>`, ...properties, '    </testcase>']));
        continue;
      }
      const under = failedStep.faults === undefined ? '' : `, with fault ${failedStep.faults.join(', ')}`;
      const message = `step ${failedStep.index + 1} (${failedStep.label}${under}): ${failedStep.failures.join('; ')}`;
      const details = [message, `answer: ${JSON.stringify(failedStep.answer ?? null, null, 2)}`, `exit code: ${failedStep.exit}`].join('\n');
      lines.push(`${open}>`, ...properties, `      <failure message="${escape(message)}" type="expectation">${escape(details)}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
