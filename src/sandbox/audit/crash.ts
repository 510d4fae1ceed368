/**
 * Whether a program that exited with a failure status crashed rather than refused: what the
 * common runtimes print on stderr for an exception nobody caught. A program ended by a signal
 * crashed whatever it printed; one that printed its own message and exited 1 refused.
 */

const UNCAUGHT: readonly { readonly pattern: RegExp; readonly what: string }[] = [
  { pattern: /^Traceback \(most recent call last\):/m, what: 'an uncaught Python exception' },
  // Node prints its version after the stack of an uncaught exception or rejection (Node 18 on).
  { pattern: /^\s*at .+:\d+:\d+\)?\s*$[\s\S]*^Node\.js v\d+/m, what: 'an uncaught JavaScript exception' },
  { pattern: /^Exception in thread "[^"]*" /m, what: 'an uncaught Java exception' },
  { pattern: /^panic: [\s\S]*^goroutine \d+ \[/m, what: 'a Go panic' },
  { pattern: /^Unhandled [eE]xception[.:]/m, what: 'an unhandled .NET exception' },
  { pattern: /^thread '[^']*' panicked at /m, what: 'a Rust panic' },
  { pattern: /^terminate called after throwing an instance of /m, what: 'an uncaught C++ exception' },
  { pattern: /^PHP Fatal error: {1,2}Uncaught /m, what: 'an uncaught PHP exception' },
];

/** What crashed it, in words (`an uncaught Python exception`), or undefined when nothing says so. */
export function uncaughtException(stderr: string): string | undefined {
  return UNCAUGHT.find((entry) => entry.pattern.test(stderr))?.what;
}
