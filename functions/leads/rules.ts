import * as v from 'valibot';
import { defined } from '../../shared/store/changes';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { newId, now } from '../../shared/ids';
import { emptyFieldsOf } from '../../shared/schema';
import { ACTIVITY_SEQUENCE, getLead, insertActivity, insertLeadWithActivity, writeLeadChanges } from './store';
import { reserveIds } from '../../shared/store/sequences';
import { retryOnStaleWrite } from '../../shared/store/versioned';
import { Lead, type CreateLeadActivityBody, type CreateLeadBody, type LeadActivity, type LeadChanges } from './schema';

/** What a new lead holds before anything happens to it, and for the optional fields left out: empty, and NEW. */
const NEW_LEAD = { ...emptyFieldsOf(Lead), status: 'NEW' } as const satisfies Partial<Lead>;

/** "Jane van der Berg" → Jane / "van der Berg"; explicit firstName/lastName win. The schema puts the fields in documented order. */
export function newLead({ name, ...profile }: Omit<CreateLeadBody, 'email'> & { email?: string | null }, id: string, createdAt: string): Lead {
  const [first, ...rest] = (name ?? '').split(/\s+/).filter(Boolean);
  return v.parse(Lead, {
    ...NEW_LEAD,
    ...defined(profile),
    id,
    firstName: profile.firstName ?? first ?? null,
    lastName: profile.lastName ?? (rest.length ? rest.join(' ') : null),
    createdAt,
    // When it is written, not a createdAt an ingestion was given: a poller past that time still finds it.
    updatedAt: now(),
  });
}

async function activity(organizationId: string, leadId: string, event: string, data: string, createdAt: string): Promise<LeadActivity> {
  return { id: await reserveIds(organizationId, ACTIVITY_SEQUENCE), event, data, referenceId: null, userId: null, leadId, createdAt, updatedAt: createdAt };
}

/** Records a lead with its LEAD_CREATED activity. */
export async function addLead(organizationId: string, lead: Lead): Promise<Lead> {
  const created = await activity(organizationId, lead.id, 'LEAD_CREATED', `Lead ${[lead.firstName, lead.lastName].filter(Boolean).join(' ')} created`, lead.createdAt);
  return insertLeadWithActivity(organizationId, lead, created);
}

export async function createLead(organizationId: string, body: CreateLeadBody): Promise<Lead> {
  const createdAt = new Date();
  return addLead(organizationId, newLead(body, newId('lead', createdAt), createdAt.toISOString()));
}

/**
 * Applies a partial change. A new status is recorded as a STATUS_CHANGED activity in the same
 * transaction; a lead changed or deleted meanwhile is read again (404 once it is gone).
 */
export async function updateLead(organizationId: string, leadId: string, changes: LeadChanges): Promise<Lead> {
  const sent = defined(changes);
  return retryOnStaleWrite(async () => {
    const current = await getLead(organizationId, leadId);
    if (!current) throw new NotFoundError('Lead not found');
    const next = v.parse(Lead, { ...current, ...sent });
    // A lead is reached by email or phone: a lead entered with only a phone keeps it until it has an email.
    if (next.email === null && next.phone === null) throw new ValidationError([{ path: 'phone', message: 'phone cannot be cleared while the lead has no email' }]);
    const statusChanged = next.status !== current.status;
    const recorded = statusChanged ? await activity(organizationId, leadId, 'STATUS_CHANGED', `Status changed from ${current.status} to ${next.status}`, now()) : undefined;
    const written = await writeLeadChanges(organizationId, current, sent, recorded);
    return { ...next, ...written };
  });
}

/** What each activity a client adds is recorded as. */
const RECORDED_AS = { NOTE: 'NOTE_ADDED' } as const satisfies Record<CreateLeadActivityBody['event'], string>;

/** Adds a note (the only activity a client writes) to the lead's timeline; an unknown lead answers 404 and records nothing. */
export async function addLeadActivity(organizationId: string, leadId: string, { event, data }: CreateLeadActivityBody): Promise<LeadActivity> {
  const added = await activity(organizationId, leadId, RECORDED_AS[event], data, now());
  await insertActivity(organizationId, added);
  return added;
}
