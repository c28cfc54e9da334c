import { ValidationError } from '#shared/errors';
import type { Lead } from './schema';

type Outcome = Pick<Lead, 'wonAt' | 'lostAt' | 'lostReason' | 'statusChangedAt'>;

/** A reason belongs to a loss: sent for a lead that is not (or no longer) LOST, it would describe nothing (400). */
export function checkLostReason(status: Lead['status'], sentReason: string | null | undefined): void {
  if (sentReason === undefined || sentReason === null || status === 'LOST') return;
  throw new ValidationError([{ path: 'lostReason', message: `lostReason may only be set on a LOST lead; this lead would be ${status}` }]);
}

/**
 * What a lead's status says of its outcome, written in the same write as the status: every move stamps
 * `statusChangedAt`, a move to WON stamps `wonAt` and leaves no loss behind, a move to LOST stamps `lostAt` (keeping the reason sent with it), a move to any other
 * stage clears all three. A create is a move from nothing, so a lead created WON or LOST is stamped with its
 * createdAt. No move changes nothing.
 */
export function outcomeOf(fromStatus: Lead['status'] | null, status: Lead['status'], at: string): Partial<Outcome> {
  if (fromStatus === status) return {};
  if (status === 'WON') return { wonAt: at, lostAt: null, lostReason: null, statusChangedAt: at };
  if (status === 'LOST') return { wonAt: null, lostAt: at, statusChangedAt: at };
  return { wonAt: null, lostAt: null, lostReason: null, statusChangedAt: at };
}

/** The outcome fields a change of `current` into `next` moves, as the write sends them: those that differ from the lead as read. */
export function outcomeChanges(current: Lead, next: Pick<Lead, 'status'>, at: string): Partial<Outcome> {
  const outcome = outcomeOf(current.status, next.status, at);
  return Object.fromEntries(Object.entries(outcome).filter(([field, value]) => current[field as keyof Outcome] !== value));
}
