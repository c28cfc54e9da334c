import { describe, expect, it } from 'vitest';
import { WriteKeys } from './write-keys';

/** Keys numbered as they are made, so a test names which one a write carries. */
const numbered = () => {
  let made = 0;
  return new WriteKeys(() => `key-${++made}`);
};
const NOTE = 'POST /v1/leads/lead_1/activities {"event":"NOTE","description":"Called, no answer"}';

describe('the Idempotency-Key of a write', () => {
  it('is the same for the same write sent again after a failure of the service, a limit or a conflict, or no answer at all', () => {
    for (const status of [500, 502, 503, 504, 429, 409]) {
      const keys = numbered();
      const first = keys.keyFor(NOTE);
      keys.answered(first, status);
      expect(keys.keyFor(NOTE), String(status)).toBe(first);
    }
    // No answer: the connection failed, nothing was told.
    const keys = numbered();
    expect(keys.keyFor(NOTE)).toBe(keys.keyFor(NOTE));
  });

  it('is new for the same write made afresh once one was answered, or refused for what it asked', () => {
    for (const status of [200, 201, 202, 400, 403, 404, 422, 499]) {
      const keys = numbered();
      const first = keys.keyFor(NOTE);
      keys.answered(first, status);
      expect(keys.keyFor(NOTE), String(status)).not.toBe(first);
    }
  });

  it('differs for another write, a body one character longer or another lead', () => {
    const keys = numbered();
    const note = keys.keyFor(NOTE);
    expect(keys.keyFor(NOTE.replace('answer"', 'answer."'))).not.toBe(note);
    expect(keys.keyFor(NOTE.replace('lead_1', 'lead_12'))).not.toBe(note);
    expect(new Set([note, keys.keyFor(NOTE)]).size).toBe(1);
  });

  it('ends only the answered write’s key: another unanswered write keeps its own', () => {
    const keys = numbered();
    const other = 'POST /v1/sms {"leadId":"lead_1","userId":1,"message":"On my way"}';
    const [note, sms] = [keys.keyFor(NOTE), keys.keyFor(other)];
    keys.answered(note, 201);
    expect(keys.keyFor(other)).toBe(sms);
    expect(keys.keyFor(NOTE)).toBe('key-3');
  });

  it('is 16 fresh random bytes in hex by default', () => {
    const keys = new WriteKeys();
    const [a, b] = [keys.keyFor('a'), keys.keyFor('b')];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});
