import * as v from 'valibot';
import { defined } from '#shared/store/changes';
import { ValidationError } from '#shared/errors';
import { now } from '#shared/ids';
import { leadEntity } from './attributes';
import { checkLostReason, outcomeOf } from './outcome';
import { Lead, MAX_NAME_PART, type CreateLeadBody } from './schema';

// A new lead as every create makes it (POST /v1/leads, an upsert, an ingested inquiry, a first text): apart from the
// rules (rules.ts), so a function that only creates leads (the inbound SMS one) carries none of the phone reading.

/** What a new lead holds before anything happens to it, and for the optional fields left out: empty, and NEW. */
const NEW_LEAD = leadEntity.defaults;

/**
 * A `name` as a first name (its first word) and a last name (the rest, or null), each held to the limit the two fields
 * have when sent apart: a lead never holds a name the API would not take back. "Jane van der Berg" → Jane / "van der
 * Berg"; explicit firstName/lastName win. The document states this on the field (nameSplitRule).
 */
export function splitName(name: string, path: string): { firstName: string | null; lastName: string | null } {
  const [first, ...rest] = name.split(/\s+/).filter(Boolean);
  const parts = { firstName: first ?? null, lastName: rest.length ? rest.join(' ') : null };
  for (const [part, value] of Object.entries(parts)) {
    // Characters as the fields' own limits count them (code points): an emoji is one.
    const characters = value === null ? 0 : [...value].length;
    if (characters > MAX_NAME_PART) throw new ValidationError([{ path, message: `${path} must split into names of at most ${MAX_NAME_PART} characters each: its ${part} would have ${characters}` }]);
  }
  return parts;
}

/**
 * A lead made from a body; `namePath` is where that body carries `name` (`lead.name` in an ingestion), named when it
 * cannot be split. Without a name (a caller or a texter who gave none) its first and last names are null.
 */
export function newLead({ name, ...profile }: Omit<CreateLeadBody, 'email'> & { email?: string | null }, id: string, createdAt: string, namePath = 'name'): Lead {
  const split = splitName(name ?? '', namePath);
  const status = profile.status ?? NEW_LEAD.status!;
  checkLostReason(status, profile.lostReason);
  return v.parse(Lead, {
    ...NEW_LEAD,
    ...defined(profile),
    id,
    firstName: profile.firstName ?? split.firstName,
    lastName: profile.lastName ?? split.lastName,
    ...outcomeOf(null, status, createdAt),
    createdAt,
    // When it is written, not a createdAt an ingestion was given: a poller past that time still finds it.
    updatedAt: now(),
  });
}
