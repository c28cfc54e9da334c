import type { SourceLimit } from '#shared/limits/per-source';

/**
 * What one source may ask of the sign-in endpoints, which anyone may call (docs/decisions/console.md): per client
 * address, and per phone, so neither one address texting many phones nor many addresses texting one phone gets far.
 * Each refuses in its own words: a phone's limit names the phone, not the address, which may be another person's.
 */
export const SIGN_IN_SOURCE_LIMITS = {
  /** Codes asked per client address an hour: a person mistyping their number a few times. */
  codesPerAddressPerHour: { name: 'sign-in-codes-address-hour', limit: 10, windowSeconds: 3600, tooMany: 'Too many sign-in codes asked from this address' },
  /** Codes sent to one phone per 15 minutes, and a day: each is a text someone pays for and a person receives. */
  codesPerPhonePer15Minutes: { name: 'sign-in-codes-phone-15-minutes', limit: 3, windowSeconds: 900, tooMany: 'Too many sign-in codes asked for this phone in 15 minutes' },
  codesPerPhonePerDay: { name: 'sign-in-codes-phone-day', limit: 10, windowSeconds: 86_400, tooMany: 'Too many sign-in codes asked for this phone in a day' },
  /** Sign-in attempts (codes or passkeys) per client address a minute. */
  attemptsPerAddressPerMinute: { name: 'sign-in-attempts-address-minute', limit: 20, windowSeconds: 60, tooMany: 'Too many sign-in attempts from this address' },
} as const satisfies Record<string, SourceLimit & { tooMany: string }>;
