/**
 * The shell blocks of a Markdown page, as the page tests run them (test/e2e/readme.test.ts says
 * the convention): every ```sh block runs, in order, in one bash; ```sh no-test marks one that
 * cannot run here (an install step, Windows, macOS); ```text blocks are never run.
 */
export interface ShellBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly code: string;
}

/** The ```sh blocks of a Markdown text, without the ones marked `no-test`. */
export function runnableBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const [lang, info] = [open[1]!, open[2]!.split(/\s+/)];
    if (lang === 'sh' && !info.includes('no-test')) blocks.push({ line: start + 1, code: body.join('\n') });
  }
  return blocks;
}

/** One bash script of the blocks; each announces itself on stderr, so a failure names its block. */
export function shellScript(blocks: readonly ShellBlock[], page: string): string {
  const parts = blocks.map((block) => `echo "::: ${page} block at line ${block.line}" >&2\n${block.code}\n`);
  return `set -euo pipefail\n${parts.join('\n')}\necho "::: ${page}: every block ran" >&2\n`;
}
