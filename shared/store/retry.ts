/** Full-jitter exponential backoff before retry `attempt` (1-based), as AWS recommends. */
export function backoff(attempt: number, baseMs = 25, capMs = 1000): Promise<void> {
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/** How often a batch's unprocessed items or a conflicted transaction are tried again. */
export const MAX_RETRIES = 5;
