import type { StepOf } from './schema';
import type { AutomationDefinition } from '../catalog';
import { durationMs } from './durations';

/** An anchor's instant (ms), when the run's record has it. */
export type AnchorOf = (anchor: string) => number | undefined;

/**
 * When a wait reached at `nowMs` is over: `duration` after now (the previous step's end), or `duration` before its
 * anchor. Undefined when the anchor is not known (a run with no appointment).
 */
export function waitDue(step: StepOf<'wait'>, nowMs: number, anchorOf: AnchorOf): number | undefined {
  const duration = durationMs(step.duration);
  if (duration === undefined) return undefined;
  if (step.before === undefined) return nowMs + duration;
  const anchor = anchorOf(step.before);
  return anchor === undefined ? undefined : anchor - duration;
}

/**
 * The anchor the step at `index` is timed against: that of the latest anchored wait before it, with no unanchored
 * wait between. A reminder sent at or after it is pointless (the appointment started): it is skipped as late.
 */
export function anchorBefore(definition: Pick<AutomationDefinition, 'steps'>, index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const step = definition.steps[i]!;
    if (step.type === 'wait') return step.before;
  }
  return undefined;
}

/** Whether the step at `index` comes at or after the anchor its reminder was timed against. */
export function isLate(definition: Pick<AutomationDefinition, 'steps'>, index: number, nowMs: number, anchorOf: AnchorOf): boolean {
  const anchor = anchorBefore(definition, index);
  const at = anchor === undefined ? undefined : anchorOf(anchor);
  return at !== undefined && nowMs >= at;
}
