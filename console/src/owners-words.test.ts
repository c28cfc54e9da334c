import { describe, expect, it } from 'vitest';
import { inOwnersWords } from './owners-words';

const refusal = { message: '', status: 400, code: undefined as string | undefined, retryAfter: null as string | null, keyed: false };

describe('a refusal in the owner’s words', () => {
  it('says the store’s pause plainly, when to try again, and that a keyed write pressed again is not done twice', () => {
    const paused = { ...refusal, message: 'The store did not answer in time, so the outcome is unknown; retry with the same Idempotency-Key', status: 503, code: 'STORE_UNAVAILABLE', retryAfter: '1', keyed: true };
    expect(inOwnersWords(paused)).toBe('The service did not answer in time, so this may or may not have been done. Try again in 1 second: it will not be done twice.');
    expect(inOwnersWords({ ...paused, keyed: false, retryAfter: '5' })).toBe('The service did not answer in time, so this may or may not have been done. Try again in 5 seconds.');
    expect(inOwnersWords({ ...paused, retryAfter: null })).toBe('The service did not answer in time, so this may or may not have been done. Try again in a moment: it will not be done twice.');
  });

  it('says a limit and a busy service plainly; a 429 was not done, so it promises nothing of twice', () => {
    expect(inOwnersWords({ ...refusal, message: 'Too many requests; slow down and retry after the Retry-After seconds', status: 429, code: 'RATE_LIMITED', retryAfter: '2', keyed: true })).toBe('Too many requests at once. Try again in 2 seconds.');
    expect(inOwnersWords({ ...refusal, message: 'The operation is busy; retry after the Retry-After seconds', status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: '2', keyed: true })).toBe('The service is busy. Try again in 2 seconds: it will not be done twice.');
    expect(inOwnersWords({ ...refusal, message: 'The request took too long; try again', status: 504, code: 'TIMEOUT', keyed: false })).toBe('The service took too long to answer, so this may or may not have been done. Try again in a moment.');
  });

  it('keeps a message of its own, the API’s advice taken off its end, whatever the code', () => {
    expect(inOwnersWords({ ...refusal, message: 'Too many codes asked from this address or for this phone: wait the Retry-After seconds.', status: 429, code: 'TOO_MANY_CODES', retryAfter: '60' })).toBe('Too many codes asked from this address or for this phone. Try again in 60 seconds.');
    expect(inOwnersWords({ ...refusal, message: 'The SMS could not be recorded in time and was not sent; retry after the Retry-After seconds', status: 503, code: 'SMS_NOT_RECORDED', retryAfter: '1', keyed: true })).toBe('The SMS could not be recorded in time and was not sent. Try again in 1 second: it will not be done twice.');
  });

  it('leaves a refusal that is the owner’s to mend as the API says it, with its full stop', () => {
    expect(inOwnersWords({ ...refusal, message: 'name must be at most 200 characters', status: 400, code: 'VALIDATION_ERROR' })).toBe('name must be at most 200 characters.');
    expect(inOwnersWords({ ...refusal, message: 'Lead not found.', status: 404, code: 'NOT_FOUND' })).toBe('Lead not found.');
    // Advice in the middle of a message is the message's own: only an ending is taken off.
    expect(inOwnersWords({ ...refusal, message: 'Send it with the same Idempotency-Key as before, then read it', status: 409, code: 'CONFLICT' })).toBe('Send it with the same Idempotency-Key as before, then read it.');
  });

  it('takes the API’s advice off in each of its spellings, with or without a separator or space, and only at the end', () => {
    const busy = { ...refusal, status: 503, code: 'BUSY', retryAfter: '3' };
    expect(inOwnersWords({ ...busy, message: 'The store did not answer in time, so the outcome is unknown; retry after Retry-After' })).toBe('The store did not answer in time, so the outcome is unknown. Try again in 3 seconds.');
    expect(inOwnersWords({ ...busy, message: 'Busy. Retry after the Retry-After seconds' })).toBe('Busy. Try again in 3 seconds.');
    expect(inOwnersWords({ ...busy, message: 'Busy;retry after Retry-After' })).toBe('Busy. Try again in 3 seconds.');
    expect(inOwnersWords({ ...busy, message: 'Busy; retry after Retry-After seconds' })).toBe('Busy. Try again in 3 seconds.');
    expect(inOwnersWords({ ...busy, message: 'Busy: retry with the same Idempotency-Key or a new one' })).toBe('Busy: retry with the same Idempotency-Key or a new one. Try again in 3 seconds.');
  });

  it('ends a message with one full stop, whatever stops inside it and whatever space trails it', () => {
    expect(inOwnersWords({ ...refusal, message: 'Use v1.2 of the form', status: 400 })).toBe('Use v1.2 of the form.');
    expect(inOwnersWords({ ...refusal, message: 'Lead not found.  ', status: 404 })).toBe('Lead not found.');
    expect(inOwnersWords({ ...refusal, message: 'Is it yours?', status: 409 })).toBe('Is it yours?');
  });

  it('reads Retry-After as whole seconds only: a date, a fraction or a unit is “in a moment”', () => {
    const limited = { ...refusal, message: 'x', status: 429, code: 'RATE_LIMITED' };
    for (const retryAfter of ['Wed, 21 Oct 2026 07:28:00 GMT', '1.5', '5s', 'x5', '']) expect(inOwnersWords({ ...limited, retryAfter }), retryAfter).toBe('Too many requests at once. Try again in a moment.');
    expect(inOwnersWords({ ...limited, retryAfter: '30' })).toBe('Too many requests at once. Try again in 30 seconds.');
  });
});
