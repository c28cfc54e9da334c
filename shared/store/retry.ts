import { AsyncLocalStorage } from 'node:async_hooks';

/** Full-jitter exponential backoff before retry `attempt` (1-based), as AWS recommends. */
export function backoff(attempt: number, baseMs = 25, capMs = 1000): Promise<void> {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/** How often a batch's unprocessed items or a conflicted transaction are tried again. */
export const MAX_RETRIES = 5;

/**
 * How long a write that keeps losing its race to other writes of the same items (a busy lead, a collection's counter)
 * goes on trying, past its first MAX_RETRIES retries, before the caller is told to retry (409 CONFLICT): concurrent
 * writers of one item then each wait their turn inside their request, well within the function's 15 s.
 */
export const CONTENDED_WRITE_BUDGET_MS = 8_000;

const deadlines = new AsyncLocalStorage<number>();

/** Runs `work` with its contended writes giving up by `deadlineMs` at the latest: a caller with less time left than the budget (a send that must still reach its provider). */
export const contendedUntil = <T>(deadlineMs: number, work: () => Promise<T>): Promise<T> => deadlines.run(deadlineMs, work);

/** Whether a write that lost its race `attempt` times since `startedAt` may try once more. */
export const mayRetryContended = (attempt: number, startedAt: number, limit = MAX_RETRIES): boolean =>
  attempt <= limit || Date.now() < Math.min(startedAt + CONTENDED_WRITE_BUDGET_MS, deadlines.getStore() ?? Infinity);
