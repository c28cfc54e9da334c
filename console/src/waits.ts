/** A wait's length as the console edits it: a whole number of days, hours or minutes (`PT2H` is 2 hours). */
export const UNITS = { days: 1440, hours: 60, minutes: 1 } as const;
export type Unit = keyof typeof UNITS;
export interface Wait {
  amount: string;
  unit: Unit;
}

/** A wait's ISO 8601 duration (`P1DT12H`) as a number of the largest unit it is a whole number of; undefined for seconds. */
export function waitOf(duration: string): Wait | undefined {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(duration);
  if (!match || duration === 'P' || duration.endsWith('T')) return undefined;
  const [weeks = 0, days = 0, hours = 0, minutes = 0] = match.slice(1).map((part) => Number(part ?? 0));
  const total = ((weeks * 7 + days) * 24 + hours) * 60 + minutes;
  const unit = (Object.keys(UNITS) as Unit[]).find((name) => total % UNITS[name] === 0)!;
  return { amount: String(total / UNITS[unit]), unit };
}

/** The duration the API takes for a number of a unit: `P2D`, `PT3H`, `PT30M`. */
export const durationOf = ({ amount, unit }: Wait): string => (unit === 'days' ? `P${amount}D` : `PT${amount}${unit === 'hours' ? 'H' : 'M'}`);

