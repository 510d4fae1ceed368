/**
 * "Did you mean …?": the names nearest to a word that is not one, by edit distance (insertions,
 * deletions, substitutions and swapped neighbours, each costing one), or by being the start of
 * one (`--exp` for `--expiry`). Too far is nothing: a suggestion that shares no more than a
 * letter or two with what was typed only misleads.
 */

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[rows - 1]![cols - 1]!;
}

/**
 * The candidates nearest to `word` (all of them when several are as near), best first, or none.
 * Near means: `word` begins one of them (three characters at least), or the edit distance is at
 * most 2, or at most 40% of the longer of the two. Compared in lower case.
 */
export function nearestNames(word: string, candidates: Iterable<string>): string[] {
  const typed = word.toLowerCase();
  let best = Number.POSITIVE_INFINITY;
  let found: string[] = [];
  for (const candidate of new Set(candidates)) {
    const name = candidate.toLowerCase();
    if (name === typed) continue;
    // A beginning counts as nearer than any typo: `--exp` means `--expiry`, not `--exec`.
    const distance = typed.length >= 3 && name.startsWith(typed) ? 0.5 : editDistance(typed, name);
    const allowed = Math.max(2, Math.floor(Math.max(typed.length, name.length) * 0.4));
    if (distance > allowed) continue;
    if (distance < best) {
      best = distance;
      found = [candidate];
    } else if (distance === best) found.push(candidate);
  }
  return found;
}

/**
 * `Did you mean list?` / `Did you mean one of list, ls?`, or undefined when nothing is near;
 * `show` writes each name as the user would type it (`data` → `--data`).
 */
export function didYouMean(word: string, candidates: Iterable<string>, show: (name: string) => string = (name) => name): string | undefined {
  return didYouMeanLine(nearestNames(word, candidates).map(show));
}

/** The question for names already found, or undefined when there are none. */
export function didYouMeanLine(names: readonly string[]): string | undefined {
  if (names.length === 0) return undefined;
  return names.length === 1 ? `Did you mean ${names[0]}?` : `Did you mean one of ${names.join(', ')}?`;
}
