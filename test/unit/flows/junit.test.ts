/**
 * `kactl test --junit`: the report is well-formed XML 1.0 whatever a flow's name or a server's
 * answer holds. Checked with a conforming parser (saxes, which refuses every character XML 1.0
 * forbids), on the text and on the file as `kactl test` writes it. Before, U+FFFE, U+FFFF and a
 * lone surrogate went into the file as they were.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../src/flows/junit.js';
import type { FileReport } from '../../../src/flows/runner.js';
import { tempDir } from '../../helpers/temp-dir.js';

/** The first well-formedness error saxes finds, or undefined. */
function xmlError(xml: string): string | undefined {
  const parser = new SaxesParser({ xmlns: false });
  let first: string | undefined;
  parser.on('error', (error) => {
    first ??= error.message;
  });
  parser.write(xml).close();
  return first;
}

const HOSTILE = ['U+FFFE \ufffe', 'U+FFFF \uffff', 'lone high \ud800 end', 'lone low \udc00 end', 'control \u0001\u001b[31m', 'pair \ud83d\ude00 ok'];

function report(values: readonly string[]): FileReport[] {
  return [
    {
      file: `flows ${values[0]}.yaml`,
      ms: 12,
      flows: values.map((value, index) => ({
        name: `flow ${value}`,
        passed: false,
        skipped: false,
        ms: 3,
        steps: [{ index, label: `step ${value}`, passed: false, failures: [`message: expected "x", got "${value}"`], answer: { success: false, message: value }, exit: 1, ms: 1 }],
      })),
    },
  ];
}

describe('the JUnit report', () => {
  it('the checker refuses what XML 1.0 forbids (it can fail)', () => {
    expect(xmlError('<a>\ufffe</a>')).toBeDefined();
    expect(xmlError('<a b="\uffff"/>')).toBeDefined();
    expect(xmlError('<a>ok &amp; fine</a>')).toBeUndefined();
  });

  it('is well-formed with U+FFFE, U+FFFF, lone surrogates and controls in names, messages and answers', () => {
    const xml = junitXml(report(HOSTILE));
    expect(xmlError(xml)).toBeUndefined();
    // Written as `kactl test --junit` writes it, and read back as bytes a CI server would parse.
    const file = path.join(tempDir(), 'junit.xml');
    fs.writeFileSync(file, xml);
    expect(xmlError(fs.readFileSync(file, 'utf8'))).toBeUndefined();
    // Each refused character shows as U+FFFD; a valid surrogate pair (an emoji) is kept.
    expect(xml).toContain('name="flow U+FFFE \ufffd"');
    expect(xml).toContain('lone high \ufffd end');
    expect(xml).toContain('pair \ud83d\ude00 ok');
    expect(xml).not.toContain('\u001b');
  });
});
