/**
 * How a command module adds its commands to the tree, and what the shell hands down to it.
 *
 * A command line runs one branch of the tree: `kactl licenses list` needs the `licenses` group
 * and its `list` verb, not the other verbs, nor their options (cold start is a measured figure).
 * So a module is told the words the command line names and adds only what they reach
 * (`reachedBy`); with no words (`kactl --help`, completion) it adds everything.
 *
 * `kactl demo` and `kactl test` run command lines through `main`, and completion reads the whole
 * tree: the shell hands them `main` and `buildProgram` (Shell) rather than have them import
 * src/cli.ts or src/program.ts, which register them: such an import would close a circle
 * (test/unit/layers.test.ts refuses every one).
 */
import type { Command } from 'commander';
import type { Context, SystemDeps } from '../context.js';

/** src/cli.ts's `main`: one command line in, its exit code out. */
export type MainFn = (argv: readonly string[], deps?: Partial<SystemDeps>) => Promise<number>;

export interface Shell {
  /** Runs a kactl command line in this process (the demo's steps, a flow's steps). */
  readonly main: MainFn;
  /** The command tree as a command line builds it; `[]` builds the whole tree (completion reads it). */
  readonly buildProgram: (ctx: Context, argv: readonly string[]) => Promise<Command>;
}

export interface Registration {
  /**
   * The words of the command line that may name commands, global options left out and `help`
   * first dropped (`licenses list` for `kactl --verbose licenses list --status used`); undefined
   * when the whole tree is wanted. Words after the commands' names (arguments) come too: a
   * module reads only as deep as its own tree goes.
   */
  readonly words?: readonly string[];
  readonly shell: Shell;
}

/** Adds a module's commands to `program`: those `registration.words` reach, or all of them. */
export type RegisterCommands = (program: Command, ctx: Context, registration: Registration) => void;

/** A command a module can add on its own: its name and aliases, and the function that adds it. */
export interface Registrar<Add> {
  readonly names: readonly string[];
  readonly add: Add;
}

/**
 * The entries the word reaches: the one it names (by name or alias), else all of them. A word
 * that names none (a typo, `help`, a group's own `--help`) needs every sibling: commander lists
 * them, or suggests the nearest.
 */
export function reachedBy<T extends { readonly names: readonly string[] }>(entries: readonly T[], word: string | undefined): readonly T[] {
  const named = word === undefined ? [] : entries.filter((entry) => entry.names.includes(word));
  return named.length > 0 ? named : entries;
}
