/**
 * The delivery schedule's fixed limits, apart from functions/webhooks/settings.ts, which reads the environment at import:
 * the document's text and the stack read these without reading it before the process has set it.
 */
export const WEBHOOK_LIMITS = {
  /** A receiver answering slower than this counts as failed. */
  timeoutMs: 10_000,
  /** Retries stop this long after the first attempt; a subscription failing this long is disabled. */
  giveUpAfterMs: 24 * 3_600_000,
  /**
   * An organization's attempts under way at once, whatever its backlog: a receiver that hangs holds this many of the
   * delivery pool's slots at most, and other organizations' deliveries take the rest.
   */
  maxInFlightPerOrganization: 3,
  /**
   * Failed attempts in a row after which a subscription is paused: its jobs wait on the queue, unattempted, until
   * the pause ends and one of them probes the receiver. Each failure past it pauses the subscription again, for
   * twice as long, from the retry base up to the longest wait between two attempts.
   */
  pauseAfterFailures: 5,
  /** The longest wait between two attempts. */
  maxDelaySeconds: 3_600,
  /**
   * The largest delivery job, and batch of jobs in all, the queue takes (SQS's 1 MiB): a job carries its event whole,
   * a record of up to 256 KB with its previous values.
   */
  maxJobBytes: 1_048_576,
} as const;
