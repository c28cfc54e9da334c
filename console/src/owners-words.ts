/**
 * A refusal as an owner reads it. The API's advice to a program (wait the Retry-After seconds, retry with the same
 * Idempotency-Key) is the door's to follow, not the owner's: it becomes what to do, in how long, and, for a write the
 * door keeps its key for (./write-keys.ts), that pressing again does nothing twice.
 */

/** The service's own troubles, said plainly, by the envelope's code. */
const PLAINLY: Record<string, string> = {
  STORE_UNAVAILABLE: 'The service did not answer in time, so this may or may not have been done.',
  SERVICE_UNAVAILABLE: 'The service is busy.',
  RATE_LIMITED: 'Too many requests at once.',
  TIMEOUT: 'The service took too long to answer, so this may or may not have been done.',
};

/** The API's advice at the end of a message, which the owner is told in their own words instead. */
const API_ADVICE = /[;:,]?\s*(?:(?:slow down and )?retry (?:after (?:the )?Retry-After(?: seconds)?|with the same Idempotency-Key)|wait the Retry-After seconds)\.?$/i;

/** Whether the refusal is a passing one, worth the same again after a wait. */
const passing = (status: number) => status === 429 || status === 503 || status === 504;

export function inOwnersWords({ message, status, code, retryAfter, keyed }: { message: string; status: number; code: string | undefined; retryAfter: string | null; keyed: boolean }): string {
  const stripped = message.replace(API_ADVICE, '').trim();
  const said = (code && PLAINLY[code]) ?? (/[.!?]$/.test(stripped) ? stripped : `${stripped}.`);
  if (!passing(status)) return said;
  const seconds = /^\d+$/.test(retryAfter ?? '') ? Number(retryAfter) : undefined;
  const when = seconds === undefined ? 'Try again in a moment' : `Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  // A 429 was refused before anything was done; a 5xx may have been done, and the same key makes the retry safe.
  return `${said} ${when}${keyed && status !== 429 ? ': it will not be done twice.' : '.'}`;
}
