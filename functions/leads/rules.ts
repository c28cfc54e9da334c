import * as v from 'valibot';
import { defined } from '#shared/store/changes';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { newId, now, requestTime } from '#shared/ids';
import {
  ACTIVITY_SEQUENCE,
  ContactTaken,
  claimsOfNewContacts,
  duplicateContact,
  getLead,
  holderOf,
  insertActivity,
  insertLeadOrFindHolders,
  LeadLostContact,
  leadsByNamePage,
  lookUpAgain,
  leadsWithContactPage,
  listLeadsPage,
  writeLeadChanges,
  type StaleClaim,
} from './store';
import { takeId } from '#shared/store/sequences';
import type { TransactWrite } from '#shared/store/transact';
import { retryOnStaleWrite, StaleWrite } from '#shared/store/versioned';
import { Lead, type CreateLeadActivityBody, type CreateLeadBody, type LeadActivity, type LeadChanges, type ListLeadsQuery, type UpsertLeadBody } from './schema';
import { contactsOf, hasContact, sameContact, type LeadContact } from './entity';
import { leadEntity } from './attributes';
import { checkLostReason, outcomeChanges } from './outcome';
import { newLead, splitName } from './new-lead';
import { looksLikePhone } from '#shared/phone';
import { e164Of, withPhoneRead } from './phones';
import { searchKey } from '#shared/store/keys';
import type { Page } from '#shared/pagination';

/** What a new lead holds before anything happens to it, and for the optional fields left out: empty, and NEW. */
const NEW_LEAD = leadEntity.defaults;

export { newLead } from './new-lead';

async function activity(organizationId: string, leadId: string, event: string, data: string, createdAt: string): Promise<LeadActivity> {
  return { id: await takeId(organizationId, ACTIVITY_SEQUENCE), event, data, referenceId: null, userId: null, leadId, createdAt, updatedAt: createdAt };
}

/** Records a lead with its LEAD_CREATED activity, or answers the live leads already holding its contacts. */
async function insertLead(organizationId: string, lead: Lead) {
  const status = lead.status === NEW_LEAD.status ? '' : ` as ${lead.status}`;
  const created = await activity(organizationId, lead.id, 'LEAD_CREATED', `Lead ${[lead.firstName, lead.lastName].filter(Boolean).join(' ')} created${status}`, lead.createdAt);
  return insertLeadOrFindHolders(organizationId, lead, created);
}

/** Records a lead with its LEAD_CREATED activity; an email or phone another lead has answers 409 DUPLICATE_CONTACT. */
export async function addLead(organizationId: string, lead: Lead): Promise<Lead> {
  const result = await insertLead(organizationId, lead);
  if ('held' in result) throw duplicateContact(result.held[0]!);
  return result.lead;
}

export async function createLead(organizationId: string, body: CreateLeadBody): Promise<Lead> {
  const createdAt = requestTime();
  return addLead(organizationId, newLead(await withPhoneRead(organizationId, body), newId('lead', createdAt), createdAt.toISOString()));
}

/**
 * Applies a partial change. A new status is recorded as a STATUS_CHANGED activity in the same transaction; an email
 * or phone another lead has answers 409 DUPLICATE_CONTACT; a lead changed or deleted meanwhile is read again (404
 * once it is gone). With `holds`, the lead must still have that contact, the one it was found by, when it is written
 * (else LeadLostContact).
 */
export async function updateLead(organizationId: string, leadId: string, changes: LeadChanges, holds?: LeadContact, also: readonly TransactWrite[] = []): Promise<Lead> {
  const sent = defined(changes);
  let stale: StaleClaim[] = [];
  return retryOnStaleWrite(async () => {
    const current = await getLead(organizationId, leadId);
    // The write is conditioned on the contacts read here, so the lead still holds `holds` when it is written.
    if (holds && !(current && hasContact(current, holds))) throw new LeadLostContact();
    if (!current) throw new NotFoundError('Lead not found');
    // One time for the change, its outcome stamp and its activity: the lead's updatedAt is the moment it was won.
    const at = now();
    const merged = v.parse(Lead, { ...current, ...sent });
    checkLostReason(merged.status, sent.lostReason);
    const moved = { ...sent, ...outcomeChanges(current, merged, at) };
    const next = { ...merged, ...moved };
    // A lead is reached by email or phone: a lead entered with only a phone keeps it until it has an email.
    if (next.email === null && next.phone === null) throw new ValidationError([{ path: 'phone', message: 'phone cannot be cleared while the lead has no email' }]);
    const statusChanged = next.status !== current.status;
    // The item keeps the two statuses too (the API shows the text): the lead's history, read back without parsing it.
    const recorded = statusChanged ? { ...(await activity(organizationId, leadId, 'STATUS_CHANGED', `Status changed from ${current.status} to ${next.status}`, at)), fromStatus: current.status, toStatus: next.status } : undefined;
    const written = await writeLeadChanges(organizationId, current, { ...moved, updatedAt: at }, recorded, stale, also).catch(async (error: unknown) => {
      if (!(error instanceof ContactTaken)) throw error;
      // A new contact's claim was not free: held by another lead (409), or stale, to be taken over as now read.
      const claims = await claimsOfNewContacts(organizationId, current, next);
      if (claims.held) throw duplicateContact(claims.held);
      stale = claims.stale;
      throw new StaleWrite();
    });
    return { ...next, ...written };
  });
}

/** An upsert's fields as a PATCH: `name` split into first and last name, unless those are given. */
function changesOf({ name, ...fields }: Omit<UpsertLeadBody, 'match'>): LeadChanges {
  if (name === undefined) return defined(fields);
  // As on create: a one-word name is a first name alone, so the lead's last name is cleared.
  return { ...splitName(name, 'name'), ...defined(fields) } as LeadChanges;
}

/**
 * The lead holding the matched contact gets the fields (as a PATCH); with no such lead one is created, claiming the
 * contact in its transaction, so concurrent upserts of one new contact make one lead and the others change it. A lead
 * deleted or giving the contact up between the lookup and the write is looked up again: the contact then finds
 * another lead, or none and a new one.
 */
export async function upsertLead(organizationId: string, body: UpsertLeadBody): Promise<{ lead: Lead; created: boolean }> {
  const { match, ...fields } = await withPhoneRead(organizationId, body);
  const contact = contactsOf({ email: fields.email ?? null, phone: fields.phone ?? null }).find(({ kind }) => kind === match.toUpperCase())!;
  // The matched contact found the lead: the lead keeps it as written (an email in another case is the same email).
  const { [match]: _matched, ...changes } = fields;
  const change = (leadId: string) => updateLead(organizationId, leadId, changesOf(changes), contact).catch(lookUpAgain);
  return retryOnStaleWrite(async () => {
    const holder = await holderOf(organizationId, contact);
    if (holder) return { lead: await change(holder.id), created: false };
    if (fields.name === undefined && fields.firstName === undefined) throw new ValidationError([{ path: 'name', message: 'name is required to create a lead: no lead has this contact' }]);
    const createdAt = requestTime();
    const result = await insertLead(organizationId, newLead(fields, newId('lead', createdAt), createdAt.toISOString()));
    if (!('held' in result)) return { lead: result.lead, created: true };
    // Created meanwhile by a concurrent upsert: that lead gets the fields. Another contact held elsewhere is a 409.
    const same = result.held.find((held) => sameContact(held.contact, contact));
    if (!same) throw duplicateContact(result.held[0]!);
    return { lead: await change(same.holder.id), created: false };
  });
}

/** Which search a list request is, if any: `q`, `email` and `phone` are one each, and only one of them. */
const SEARCHES = ['q', 'email', 'phone'] as const;

/**
 * A page of the organization's leads: the list (optionally by status, company and assignee), or a search. `q` reads
 * as an email when it has an `@`, as a phone when it has only phone characters and 6 digits or more, else as a name
 * prefix. Each search takes `status`, `companyId` and `assignedMemberId` too.
 */
export async function listLeads(organizationId: string, query: ListLeadsQuery): Promise<Page<Lead>> {
  const { q, email, phone, status, companyId, assignedMemberId, page, limit, cursor } = query;
  const request = { page, limit, cursor };
  const filters = { status, companyId, assignedMemberId };
  const sent = SEARCHES.filter((name) => query[name] !== undefined);
  if (sent.length > 1) throw new ValidationError([{ path: sent[1]!, message: `${sent[1]} cannot be combined with ${sent[0]}: send one of ${SEARCHES.join(', ')}` }]);
  // A change log is kept per list, not per search.
  if (sent.length && query.updatedSince !== undefined) throw new ValidationError([{ path: 'updatedSince', message: `updatedSince cannot be combined with ${sent[0]}` }]);
  const byContact = (contact: LeadContact) => leadsWithContactPage(organizationId, contact, filters, request);
  // A range of statusChangedAt takes no search: listLeadsPage answers 400 naming it.
  if (query.statusChangedSince !== undefined || query.statusChangedBefore !== undefined) return listLeadsPage(organizationId, query);
  if (email !== undefined) return byContact({ kind: 'EMAIL', value: email.toLowerCase() });
  if (phone !== undefined) return byContact({ kind: 'PHONE', value: await e164Of(organizationId, phone, 'phone') });
  if (q === undefined) return listLeadsPage(organizationId, query);
  if (q.includes('@')) return byContact({ kind: 'EMAIL', value: q.toLowerCase() });
  if (looksLikePhone(q)) return byContact({ kind: 'PHONE', value: await e164Of(organizationId, q, 'q') });
  if (!searchKey(q)) throw new ValidationError([{ path: 'q', message: 'q must have a letter or digit' }]);
  return leadsByNamePage(organizationId, q, filters, request);
}

/** What each activity a client adds is recorded as. */
const RECORDED_AS = { NOTE: 'NOTE_ADDED' } as const satisfies Record<CreateLeadActivityBody['event'], string>;

/** Adds a note (the only activity a client writes) to the lead's timeline; an unknown lead answers 404 and records nothing. */
export async function addLeadActivity(organizationId: string, leadId: string, { event, data }: CreateLeadActivityBody, also: readonly TransactWrite[] = []): Promise<LeadActivity> {
  const added = await activity(organizationId, leadId, RECORDED_AS[event], data, now());
  await insertActivity(organizationId, added, also);
  return added;
}
