/** Help descriptions start lower-case across kactl (`manage profiles: …`); keep `IPs`, `HWIDs`. */
export function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
