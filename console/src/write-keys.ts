/** A fresh Idempotency-Key (getRandomValues, which unlike randomUUID needs no secure context). */
const randomKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The Idempotency-Key of each write that takes one (./api-lists.ts): a new key for a new write, and the same key
 * for the same write sent again while it has had no answer of its own (a 5xx, 429 or 409, or no connection). The API
 * answers a write and its retries once: an owner who presses Add note again after "try again" saves one note.
 */
export class WriteKeys {
  /** The writes sent without an answer of their own, by what they sent: the key each carried. */
  private readonly unanswered = new Map<string, string>();

  constructor(private readonly newKey: () => string = randomKey) {}

  /** The key for a write (its method, URL and body, as one text): the one it had while unanswered, else a new one. */
  keyFor(write: string): string {
    const key = this.unanswered.get(write) ?? this.newKey();
    this.unanswered.set(write, key);
    return key;
  }

  /**
   * The answer to the write that carried `key`: one of its own (done, or refused for what it asked) ends the key, so
   * the same write made afresh is a new one; a failure of the service, a limit or a conflict keeps it for the retry.
   */
  answered(key: string, status: number): void {
    if (status >= 500 || status === 429 || status === 409) return;
    for (const [write, kept] of this.unanswered) if (kept === key) this.unanswered.delete(write);
  }
}
