/**
 * ISO 8601 durations as automations' waits write them: weeks, days, hours, minutes, seconds (`PT2M`, `P2D`, `P1DT12H`);
 * months and years are not fixed lengths and are refused. At least one part, and a `T` only before a time part (`P`,
 * `PT`, `P1DT` are none): the pattern alone decides, so the document's copy of it refuses what the API refuses.
 */
export const DURATION = /^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;
const UNIT_MS = [7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000];

/** The duration in milliseconds, or undefined when the text is not one (`P`, `PT`, `P1M`, `2 days`). */
export function durationMs(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match) return undefined;
  return match.slice(1).reduce((total, part, index) => total + (part === undefined ? 0 : Number(part) * UNIT_MS[index]!), 0);
}
