import { histogramAttribute, SPEED_TO_LEAD_BOUNDS } from './metrics';

/** The speed-to-lead bucket of a wait: the first whose upper bound it is within, else the open one past the last bound. */
export function speedBucket(seconds: number): string {
  const bucket = SPEED_TO_LEAD_BOUNDS.findIndex((bound) => seconds <= bound);
  return histogramAttribute(bucket < 0 ? SPEED_TO_LEAD_BOUNDS.length : bucket);
}
