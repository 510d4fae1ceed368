/**
 * `kactl sandbox audit`'s report for people: a table of the scenarios (scenario, expected,
 * result, exit status, time), each row followed by its details wrapped to the width (what the
 * sandbox did, what a sound program does where it matters, notes and findings, the requests the
 * program made with the inspector's reasons), then the summary line. And `--list`.
 */
import type { AuditScenarioInfo } from '../../sandbox/audit/catalog.js';
import type { AuditApi } from '../../sandbox/audit/scenario-types.js';
import type { AuditReport, AuditRequest, AuditScenarioResult } from '../../sandbox/audit/report.js';
import { oneLine } from '../../io/format.js';
import { wrapWords } from '../../io/wrap.js';

const HEADERS = ['SCENARIO', 'EXPECTED', 'RESULT', 'EXIT', 'TIME'] as const;
/** The label column of the detail lines. */
const LABEL_WIDTH = 10;
const INDENT = '  ';

const STATUS_WORD: Readonly<Record<AuditScenarioResult['status'], string>> = { passed: 'pass', failed: 'FAIL', informational: 'info', skipped: 'skipped' };

function resultCell(result: AuditScenarioResult): string {
  return result.outcome === null ? STATUS_WORD[result.status] : `${STATUS_WORD[result.status]}: ${result.outcome}`;
}

function exitCell(result: AuditScenarioResult): string {
  return result.signal ?? (result.exitCode === null ? '-' : String(result.exitCode));
}

function timeCell(result: AuditScenarioResult): string {
  return result.outcome === null ? '-' : `${(result.durationMs / 1000).toFixed(2)} s`;
}

/**
 * `1.3 license refused: Your license is banned (license AUDI… is banned) [answer changed by fault
 * #1 emulate]`. The table leaves out why a success succeeded (`reasons: 'refusals'`): the
 * refusals' reasons are what a reader looks for; JSON and JUnit keep every one.
 */
export function requestLine(request: AuditRequest, reasons: 'all' | 'refusals' = 'all'): string {
  const verdict = request.success === true ? 'success' : request.success === false ? 'refused' : `status ${request.status}`;
  const message = request.message === null || request.message === '' ? '' : `: ${request.message}`;
  const refused = request.success === false || request.status >= 400;
  const reason = request.reason === null || (reasons === 'refusals' && !refused) ? '' : ` (${request.reason})`;
  const fault = request.fault === null ? '' : ` [answer changed by fault ${request.fault}]`;
  return oneLine(`${request.api} ${request.type ?? '(no type)'} ${verdict}${message}${reason}${fault}`);
}

/** A labelled detail, wrapped under its label. */
function detail(label: string, text: string, width: number): string[] {
  const first = `${INDENT}${label.padEnd(LABEL_WIDTH)}`;
  return wrapWords(oneLine(text), width, first, ' '.repeat(first.length));
}

function detailsOf(result: AuditScenarioResult, width: number): string[] {
  const lines = detail('sandbox', result.sandbox, width);
  if (result.status !== 'passed') lines.push(...detail('sound', result.sound, width));
  if (result.status !== 'passed' && result.outcome !== null) lines.push(...detail('this one', result.did, width));
  if (result.finding !== null) lines.push(...detail('finding', result.finding, width));
  if (result.note !== null) lines.push(...detail('note', result.note, width));
  if (result.outcome !== null) {
    if (result.requests.length === 0) lines.push(...detail('requests', 'none reached the sandbox', width));
    result.requests.forEach((request, index) => lines.push(...detail(index === 0 ? 'requests' : '', requestLine(request, 'refusals'), width)));
  }
  return lines;
}

export function auditReportText(report: AuditReport, width: number): string {
  const rows = report.scenarios.map((result) => [result.id, result.expected, resultCell(result), exitCell(result), timeCell(result)]);
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ');
  const out = [`Audit of ${oneLine(report.command.join(' '))} (client API ${report.api}), ${report.scenarios.length} scenarios in ${(report.durationMs / 1000).toFixed(1)} s`, '', line(HEADERS)];
  report.scenarios.forEach((result, index) => {
    out.push(line(rows[index]!), ...detailsOf(result, width));
  });
  out.push('', ...wrapWords(report.summary, width));
  return `${out.join('\n')}\n`;
}

/** `--list`: each scenario of the API (or all), what the sandbox does and what a sound program does. */
export function scenarioListText(scenarios: readonly AuditScenarioInfo[], api: AuditApi | undefined, width: number): string {
  const out: string[] = [];
  for (const info of scenarios) {
    if (api !== undefined && !info.apis.includes(api)) continue;
    const grading = info.graded ? `must be ${info.expected}` : 'informational';
    // Its continuation lines go deeper than the details under it.
    out.push(...wrapWords(`${info.id}: ${info.title} (${grading}; client API ${info.apis.join(' and ')})`, width, '', INDENT.repeat(2)));
    const texts = [...new Set(Object.values(info.sandbox))];
    if (texts.length === 1) out.push(...detail('sandbox', texts[0]!, width));
    else for (const [on, text] of Object.entries(info.sandbox)) out.push(...detail(`on ${on}`, text, width));
    out.push(...detail('sound', info.sound, width));
    if (info.informational !== null) out.push(...detail('why info', info.informational, width));
  }
  return `${out.join('\n')}\n`;
}
