// "Did you mean ...?" for a name a user typed (an operationId of a fault rule, an event of `webhooks
// listen --events`): the known names closest to it, by Levenshtein distance over lower-case letters, at
// most a third of the name's length (at least 2) away; a name that contains, or is contained in, a known
// one counts as closest. The one place these suggestions are computed.

/** Up to `max` known names close to `name`, closest first (ties in name order). */
export function closestNames(name: string, known: Iterable<string>, max = 3): string[] {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  return [...known]
    .map((id) => {
      const other = id.toLowerCase();
      return { id, d: other.includes(lower) || lower.includes(other) ? 0 : distance(lower, other) };
    })
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id))
    .slice(0, max)
    .map((x) => x.id);
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}
