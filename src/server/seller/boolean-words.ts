/**
 * The one rule for a seller boolean parameter (`userToo`, `activeOnly`, `authed`, `readOnly`,
 * `enabled`, `hwidcheck`...), whatever the catalog says the server wants (`bool01` or
 * `booltext`). The hosted server reads these with PHP truthiness, so the official Telegram bot's
 * `userToo=true` acts there; the sandbox takes the usual spellings in any case and refuses
 * anything else, instead of copying PHP's trap where `false` is true
 * (docs/protocol/seller-api.md §1.6). kactl itself sends 1 / 0 (and true / false to updatesettings).
 */
const TRUE_WORDS: ReadonlySet<string> = new Set(['1', 'true', 'yes', 'on']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['0', 'false', 'no', 'off']);

/** The words accepted, for refusals: "1/0, true/false, yes/no or on/off". */
export const BOOLEAN_WORDS = '1/0, true/false, yes/no or on/off';

/** `true` / `false` for an accepted spelling (any case), undefined for anything else. */
export function parseBooleanWord(value: string): boolean | undefined {
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}
