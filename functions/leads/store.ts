import { auditDeletion } from '#shared/audit/deletion';
import { now } from '#shared/ids';
import { deleteItems } from '#shared/store/batch-write';
import { counterUpdate } from '#shared/store/counters';
import { keys, type Key } from '#shared/store/keys';
import { queryAll } from '#shared/store/query-page';
import { deleteIfStill, deleteItem, insertIfAbsent, transact, writeAlone, type TransactWrite } from '#shared/store/transact';
import { setFields } from '#shared/store/update-fields';
import { retryOnStaleWrite, StaleWrite } from '#shared/store/versioned';
import { leadEntity } from './attributes';
import { claimContacts, ContactTaken, readClaims, type HeldContact, type StaleClaim } from './claims';
import { contactsOf, EMAIL_KEY, hasContact, leadAudit, leadCounterNames, leadKeys, toActivityItem, toLeadItem } from './entity';
import { asRead, companyCheck, counterMoves, memberCheck, nameMoves } from './moves';
import { phoneOptOutIs, withPhoneOptOut } from './opt-out';
import { getLead, leadNotFound } from './read';
import type { Lead, LeadActivity } from './schema';

/**
 * A lead's writes: create, change and delete, each one transaction with what it moves. The rest of the store is by
 * concern: contact claims (./claims), opt-out (./opt-out), list and search (./search), activities (./activity-store).
 */
export { ACTIVITY_SEQUENCE, insertActivity, listActivitiesPage } from './activity-store';
export {
  claimContacts,
  claimedLeadIdOfPhone,
  claimsOfNewContacts,
  ContactTaken,
  duplicateContact,
  findLeadByPhone,
  holderOf,
  holderOfFirst,
  LeadLostContact,
  leadOfContact,
  lookUpAgain,
  type HeldContact,
  type StaleClaim,
} from './claims';
export { isPhoneOptedOut, smsOptOutWrite } from './opt-out';
export { getLead } from './read';
export { leadsByNamePage, leadsWithContactPage, listLeadsPage } from './search';

/**
 * The lead, its first activity, its name items, the claims of its contacts (`claimContacts`) and the lead and
 * activity counters, in one transaction; a linked company and an assignee must exist. The lead takes its phone's
 * opt-out. Answers the lead as written.
 */
async function insertLeadWithActivity(organizationId: string, lead: Lead, activity: LeadActivity, claims: TransactWrite[], also: readonly TransactWrite[]): Promise<Lead> {
  const writeAs = (written: Lead) =>
    transact([
      ...claims,
      insertIfAbsent(toLeadItem(organizationId, written)),
      insertIfAbsent(toActivityItem(organizationId, activity)),
      ...companyCheck(organizationId, lead.companyId),
      ...memberCheck(organizationId, lead.assignedMemberId),
      ...counterMoves(organizationId, null, lead),
      ...nameMoves(organizationId, null, lead),
      counterUpdate(organizationId, leadCounterNames.activities(lead.id), 1),
      ...(lead.phone ? [phoneOptOutIs(organizationId, lead.phone, written.smsOptedOut)] : []),
      ...also,
    ]);
  if (!lead.phone) {
    await writeAs(lead);
    return lead;
  }
  const smsOptedOut = await withPhoneOptOut((optedOut) => writeAs({ ...lead, smsOptedOut: optedOut }));
  return { ...lead, smsOptedOut };
}

/**
 * Creates the lead claiming each of its contacts, or answers the live leads that hold them (email first) and
 * writes nothing. Concurrent creates with one new contact thus make one lead: the claims are taken in the create's
 * transaction, and the losers read the winner's. A claim whose lead was deleted or no longer has the contact is
 * stale, counts as absent, and is taken over in the creating transaction. `also` goes in the same transaction (the
 * first inquiry of a lead an SMS makes), its condition failures thrown as they are.
 */
export async function insertLeadOrFindHolders(organizationId: string, lead: Lead, activity: LeadActivity, also: readonly TransactWrite[] = []): Promise<{ lead: Lead } | { held: HeldContact[] }> {
  const contacts = contactsOf(lead);
  let stale: StaleClaim[] = [];
  return retryOnStaleWrite(async () => {
    const claims = claimContacts(organizationId, lead.id, contacts, stale, () => new ContactTaken());
    const written = await insertLeadWithActivity(organizationId, lead, activity, claims, also).catch((error: unknown) => {
      if (error instanceof ContactTaken) return undefined;
      throw error;
    });
    if (written) return { lead: written };
    const read = await readClaims(organizationId, contacts);
    const held = read.flatMap(({ contact, holder }) => (holder ? [{ contact, holder }] : []));
    // The lead's id is the same in every attempt of a keyed request: a contact held by it is this request's earlier
    // attempt, whose transaction landed (its items at another time, so unrecognised as its own); it answers that lead.
    const own = held.find(({ holder }) => holder.id === lead.id);
    if (own) return { lead: own.holder };
    if (held.length) return { held };
    // No claim is held by a lead that has its contact: try again over the stale ones.
    stale = read.flatMap(({ contact, leadId }) => (leadId ? [{ contact, leadId }] : []));
    throw new StaleWrite();
  });
}

/**
 * Writes the changed fields of a lead (never the whole item, so an inquiry recorded meanwhile keeps its counts) on
 * condition that its status, company, assignee, names and contacts are still those read. A new status, company or
 * assignee moves the list indexes and counters, a new company or assignee is checked, new names move the name items, a
 * new email or phone claims it (while free, or stale as `stale` read it; else ContactTaken) and a new phone takes its
 * opt-out, and `activity` is recorded, in one transaction. Throws StaleWrite when the lead changed or went meanwhile.
 * Answers the changes as written.
 */
export async function writeLeadChanges(organizationId: string, current: Lead, sent: Partial<Lead>, activity?: LeadActivity, stale: StaleClaim[] = [], also: readonly TransactWrite[] = []): Promise<Partial<Lead>> {
  // updatedAt moves the lead to the end of its change log (gsi6 sorts by it) and is the time of its lead.updated event;
  // a caller that stamps other fields of the change (wonAt) sends the one time they share.
  const changes = { updatedAt: now(), ...sent };
  const next = { ...current, ...changes };
  const indexes = leadEntity.indexMoves(organizationId, current, next);
  const phoneChanged = next.phone !== current.phone;
  const emailChanged = next.email !== current.email;
  const emailKey = emailChanged && next.email ? { [EMAIL_KEY]: next.email.toLowerCase() } : {};
  const taken = contactsOf(next).filter((contact) => !hasContact(current, contact));
  const others = [
    ...counterMoves(organizationId, current, next),
    // A claim left on a contact the lead no longer has is stale, and every claim reads it so; nothing removes it here.
    ...claimContacts(organizationId, current.id, taken, stale, () => new ContactTaken()),
    ...nameMoves(organizationId, current, next),
    ...(next.companyId !== current.companyId ? companyCheck(organizationId, next.companyId) : []),
    // Only a new assignee is checked: a lead keeps naming a member removed since while other fields change.
    ...(next.assignedMemberId !== current.assignedMemberId ? memberCheck(organizationId, next.assignedMemberId) : []),
    ...(activity ? [insertIfAbsent(toActivityItem(organizationId, activity)), counterUpdate(organizationId, leadCounterNames.activities(current.id), 1)] : []),
    ...also,
  ];
  const writeAs = async (written: Partial<Lead>) => {
    const update = setFields(leadKeys.lead(organizationId, current.id), { ...written, ...indexes.set, ...emailKey }, {
      remove: [...indexes.remove, ...(emailChanged && !next.email ? [EMAIL_KEY] : [])],
      condition: asRead(current),
      onConditionFailed: () => new StaleWrite(),
    });
    const optOut = phoneChanged && next.phone ? [phoneOptOutIs(organizationId, next.phone, written.smsOptedOut ?? false)] : [];
    await (others.length || optOut.length ? transact([update, ...others, ...optOut]) : writeAlone(update));
  };
  if (!phoneChanged) {
    await writeAs(changes);
    return changes;
  }
  // A new phone brings its own opt-out; a lead without a phone has nothing to opt out of.
  if (!next.phone) {
    const written = { ...changes, smsOptedOut: false };
    await writeAs(written);
    return written;
  }
  const smsOptedOut = await withPhoneOptOut((optedOut) => writeAs({ ...changes, smsOptedOut: optedOut }));
  return { ...changes, smsOptedOut };
}

/**
 * Reads the lead (its status and company name the counters it leaves, its names its name items), removes it, its
 * counters and name items atomically on condition that none changed meanwhile, then its activity records. A retried delete
 * whose first attempt stopped after the transaction answers 404 and still finishes removing them.
 */
export async function deleteLeadWithActivities(organizationId: string, leadId: string): Promise<void> {
  const found = await retryOnStaleWrite(async () => {
    const lead = await getLead(organizationId, leadId);
    if (!lead) return false;
    await transact([
      deleteIfStill(leadKeys.lead(organizationId, leadId), asRead(lead), () => new StaleWrite()),
      ...counterMoves(organizationId, lead, null),
      ...nameMoves(organizationId, lead, null),
      deleteItem(keys.counter(organizationId, leadCounterNames.activities(leadId))),
      // Its conversation leaves the organization's conversations with it (its messages stay with their inquiries).
      deleteItem(leadKeys.conversation(organizationId, leadId)),
      // Its activities, removed after it, are the lead's: its entry stands for them.
      ...auditDeletion(organizationId, leadAudit, leadId),
    ]);
    return true;
  });
  await deleteItems((await queryAll(leadKeys.activities(organizationId, leadId), ['pk', 'sk'])) as unknown as Key[]);
  if (!found) throw leadNotFound();
}
