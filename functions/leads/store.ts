import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { contactAttribute, contactsOf, EMAIL_KEY, fromActivityItem, fromLeadItem, hasContact, LEAD_CHANGES, leadAudit, type LeadContact, leadCounterNames, leadKeys, nameKeysOf, sameContact, toActivityItem, toLeadContactItem, toLeadItem, toLeadNameItem } from './entity';
import { batchGetItems } from '../../shared/store/batch-get';
import { pageOfFiltered, pageOfMatches } from '../../shared/store/match-page';
import { keys, type Key } from '../../shared/store/keys';
import { ApiError, ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { now } from '../../shared/ids';
import type { Page, PageRequest } from '../../shared/pagination';
import type { Lead, LeadActivity, ListLeadsQuery } from './schema';
import { deleteItems } from '../../shared/store/batch-write';
import { counterUpdate } from '../../shared/store/counters';
import { countedPage, queryAll, type PageSource } from '../../shared/store/query-page';
import { changeLogKey, listOrChanges } from '../../shared/store/change-log';
import { deleteItem, insertIfAbsent, requireExisting, transact, writeAlone, type TransactWrite } from '../../shared/store/transact';
import { setFields, type Condition } from '../../shared/store/update-fields';
import { retryOnStaleWrite, StaleWrite } from '../../shared/store/versioned';
import { auditDeletion } from '../../shared/audit/deletion';
import { blockSequence } from '../../shared/store/sequences';

/**
 * Activity ids: every lead create, status change, note, inquiry and booking takes one, so each container takes them
 * from blocks of 50 (one UpdateItem per 50) rather than writing the organization's sequence item every time. The
 * timeline is sorted by time, not by id (`leadKeys.activity`).
 */
export const ACTIVITY_SEQUENCE = blockSequence('ACTIVITY', 50);

const leadNotFound = () => new NotFoundError('Lead not found');

type LeadFilters = Pick<Lead, 'status' | 'companyId'>;

/** The counters a lead counts in: every lead, its status, and with a company, its company. */
function countersOf({ status, companyId }: LeadFilters): string[] {
  const names = [leadCounterNames.leads(), leadCounterNames.leads({ status })];
  if (companyId) names.push(leadCounterNames.leads({ companyId }));
  return names;
}

/** The counter moves when a lead's status or company changes: out of the old ones, into the new ones. */
function counterMoves(organizationId: string, from: LeadFilters | null, to: LeadFilters | null): TransactWrite[] {
  const before = new Set(from ? countersOf(from) : []);
  const after = new Set(to ? countersOf(to) : []);
  return [
    ...[...before].filter((name) => !after.has(name)).map((name) => counterUpdate(organizationId, name, -1)),
    ...[...after].filter((name) => !before.has(name)).map((name) => counterUpdate(organizationId, name, 1)),
  ];
}

/** A linked company must be one of the organization's, checked inside the write's transaction. */
function companyCheck(organizationId: string, companyId: string | null): TransactWrite[] {
  if (companyId === null) return [];
  const unknown = () => new ValidationError([{ path: 'companyId', message: `companyId ${companyId} does not match any company of the organization` }]);
  return [requireExisting(leadKeys.company(organizationId, companyId), unknown)];
}

/** The fields a lead's write keys other items by: its counters and indexes (status, company), name items and claims. */
const KEYED_FIELDS = ['status', 'companyId', 'firstName', 'lastName', 'email', 'phone'] as const;

/**
 * The lead still has the status, company, names and contacts it was read with, so the counters, name items and
 * claims its write moves are the right ones.
 */
function asRead(lead: Pick<Lead, (typeof KEYED_FIELDS)[number]>): Condition {
  const clauses = KEYED_FIELDS.map((field, i) =>
    lead[field] === null ? `(attribute_not_exists(#k${i}) OR attribute_type(#k${i}, :nullType))` : `#k${i} = :k${i}`,
  );
  return {
    expression: clauses.join(' AND '),
    names: Object.fromEntries(KEYED_FIELDS.map((field, i) => [`#k${i}`, field])),
    values: {
      // DynamoDB refuses a value the expression does not use.
      ...(KEYED_FIELDS.some((field) => lead[field] === null) ? { ':nullType': 'NULL' } : {}),
      ...Object.fromEntries(KEYED_FIELDS.flatMap((field, i) => (lead[field] === null ? [] : [[`:k${i}`, lead[field]]]))),
    },
  };
}

/**
 * The name items a write moves: those of names the lead no longer has go, and with any change of its names, status
 * or company every name it has is written again (they carry its status and company).
 */
function nameMoves(organizationId: string, from: Lead | null, to: Lead | null): TransactWrite[] {
  const before = from ? nameKeysOf(from) : [];
  const after = to ? nameKeysOf(to) : [];
  const changed = !from || !to || (['firstName', 'lastName', 'status', 'companyId'] as const).some((field) => from[field] !== to[field]);
  if (!changed) return [];
  return [
    ...before.filter((name) => !after.includes(name)).map((name) => deleteItem(leadKeys.leadName(organizationId, name, from!.id))),
    ...after.map((name): TransactWrite => ({ item: { Put: { TableName: config.tableName, Item: toLeadNameItem(organizationId, name, to!) } } })),
  ];
}

/** A claim as last read: the lead it names, which no longer has the contact (deleted, or its contact changed). */
export interface StaleClaim {
  contact: LeadContact;
  leadId: string;
}

/**
 * Claims the contacts for a new lead only as they were read: a free claim only while it is absent, a stale one
 * only while it still names the lead read and that lead still lacks the contact (a PATCH may give it back).
 * Any of those failing throws `onTaken`: read the claims again.
 */
export function claimContacts(organizationId: string, leadId: string, contacts: LeadContact[], stale: StaleClaim[], onTaken: () => Error): TransactWrite[] {
  const claims = contacts.map((contact): TransactWrite => {
    const item = toLeadContactItem(organizationId, contact, leadId);
    const held = stale.find((claim) => sameContact(claim.contact, contact));
    if (!held) return insertIfAbsent(item, onTaken);
    return { item: { Put: { TableName: config.tableName, Item: item, ConditionExpression: '#leadId = :held', ExpressionAttributeNames: { '#leadId': 'leadId' }, ExpressionAttributeValues: { ':held': held.leadId } } }, onConditionFailed: onTaken };
  });
  // One check per stale lead: a transaction may name an item only once. The lead itself (a PATCH giving back a
  // contact it had) needs none: its own write is conditioned on the contacts it was read with.
  const checks = [...new Set(stale.map((claim) => claim.leadId))].filter((staleLeadId) => staleLeadId !== leadId).map((staleLeadId): TransactWrite => {
    const attributes = stale.filter((claim) => claim.leadId === staleLeadId).map((claim) => contactAttribute(claim.contact));
    return {
      item: {
        ConditionCheck: {
          TableName: config.tableName,
          Key: leadKeys.lead(organizationId, staleLeadId),
          ConditionExpression: attributes.map((_, i) => `(attribute_not_exists(#a${i}) OR #a${i} <> :v${i})`).join(' AND '),
          ExpressionAttributeNames: Object.fromEntries(attributes.map(([name], i) => [`#a${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(attributes.map(([, value], i) => [`:v${i}`, value])),
        },
      },
      onConditionFailed: onTaken,
    };
  });
  return [...claims, ...checks];
}

/** The phone's opt-out is not what the write assumed: a STOP or START from it was recorded meanwhile. */
class PhoneOptOutDiffers extends Error {}

/** How often a write flips its assumption about a phone's opt-out before the caller is told to retry (STOP and START racing it). */
const OPT_OUT_ATTEMPTS = 4;

/** A phone's opt-out (STOP) held per organization, whichever lead has the phone, and outliving every lead. */
export function smsOptOutWrite(organizationId: string, phone: string, optedOut: boolean, at: string): TransactWrite {
  const key = leadKeys.smsOptOut(organizationId, phone);
  return optedOut ? { item: { Put: { TableName: config.tableName, Item: { ...key, entity: 'SMS_OPT_OUT', phone, optedOutAt: at } } } } : deleteItem(key);
}

/** The check, inside a lead's write, that the phone's opt-out is what the lead records. */
function phoneOptOutIs(organizationId: string, phone: string, optedOut: boolean): TransactWrite {
  const key = leadKeys.smsOptOut(organizationId, phone);
  return { item: { ConditionCheck: { TableName: config.tableName, Key: key, ConditionExpression: optedOut ? 'attribute_exists(pk)' : 'attribute_not_exists(pk)' } }, onConditionFailed: () => new PhoneOptOutDiffers() };
}

/**
 * Runs a lead's write that takes on its phone's opt-out: assumed absent, checked in the write's transaction, and
 * written again the other way when the check fails. So a lead created or given a phone that said STOP starts
 * opted out, with no read in the common case. Answers the opt-out written.
 */
async function withPhoneOptOut(write: (optedOut: boolean) => Promise<void>): Promise<boolean> {
  let optedOut = false;
  for (let attempt = 1; attempt <= OPT_OUT_ATTEMPTS; attempt++) {
    try {
      await write(optedOut);
      return optedOut;
    } catch (error) {
      if (!(error instanceof PhoneOptOutDiffers)) throw error;
      optedOut = !optedOut;
    }
  }
  throw new ConflictError('The lead’s phone opted out or in while it was written; try again');
}

/**
 * The lead, its first activity, its name items, the claims of its contacts (`claimContacts`) and the lead and
 * activity counters, in one transaction; a linked company must exist. The lead takes its phone's opt-out. Answers
 * the lead as written.
 */
async function insertLeadWithActivity(organizationId: string, lead: Lead, activity: LeadActivity, claims: TransactWrite[]): Promise<Lead> {
  const writeAs = (written: Lead) =>
    transact([
      ...claims,
      insertIfAbsent(toLeadItem(organizationId, written)),
      insertIfAbsent(toActivityItem(organizationId, activity)),
      ...companyCheck(organizationId, lead.companyId),
      ...counterMoves(organizationId, null, lead),
      ...nameMoves(organizationId, null, lead),
      counterUpdate(organizationId, leadCounterNames.activities(lead.id), 1),
      ...(lead.phone ? [phoneOptOutIs(organizationId, lead.phone, written.smsOptedOut)] : []),
    ]);
  if (!lead.phone) {
    await writeAs(lead);
    return lead;
  }
  const smsOptedOut = await withPhoneOptOut((optedOut) => writeAs({ ...lead, smsOptedOut: optedOut }));
  return { ...lead, smsOptedOut };
}

/** A claim on a lead's new contact was not as last read: another lead took it, or a stale lead got it back. */
export class ContactTaken extends Error {}

/** A contact and the live lead that holds it: it exists and still has the contact. */
export interface HeldContact {
  contact: LeadContact;
  holder: Lead;
}

/**
 * The lead a write was meant for, found by one of its contacts, was deleted or gave the contact up between the lookup
 * and the write: the write is not made, and the caller looks the contact up again.
 */
export class LeadLostContact extends Error {}

/** Rethrows a LeadLostContact as a StaleWrite, so the retryOnStaleWrite around the lookup runs it again. */
export function lookUpAgain(error: unknown): never {
  throw error instanceof LeadLostContact ? new StaleWrite() : error;
}

/** Each contact's claim as it is now, with its lead when that lead still exists and has the contact. */
async function readClaims(organizationId: string, contacts: LeadContact[]): Promise<Array<{ contact: LeadContact; leadId?: string; holder?: Lead }>> {
  return Promise.all(
    contacts.map(async (contact) => {
      const leadId = await leadOfContact(organizationId, contact);
      const lead = leadId ? await getLead(organizationId, leadId) : undefined;
      return { contact, leadId, holder: lead && hasContact(lead, contact) ? lead : undefined };
    }),
  );
}

/** The live lead holding a contact, if any: its claim, and the claim's lead while it still has the contact. */
export async function holderOf(organizationId: string, contact: LeadContact): Promise<Lead | undefined> {
  return (await readClaims(organizationId, [contact]))[0]!.holder;
}

/**
 * Creates the lead claiming each of its contacts, or answers the live leads that hold them (email first) and
 * writes nothing. Concurrent creates with one new contact thus make one lead: the claims are taken in the create's
 * transaction, and the losers read the winner's. A claim whose lead was deleted or no longer has the contact is
 * stale, counts as absent, and is taken over in the creating transaction.
 */
export async function insertLeadOrFindHolders(organizationId: string, lead: Lead, activity: LeadActivity): Promise<{ lead: Lead } | { held: HeldContact[] }> {
  const contacts = contactsOf(lead);
  let stale: StaleClaim[] = [];
  return retryOnStaleWrite(async () => {
    const claims = claimContacts(organizationId, lead.id, contacts, stale, () => new ContactTaken());
    const written = await insertLeadWithActivity(organizationId, lead, activity, claims).catch((error: unknown) => {
      if (error instanceof ContactTaken) return undefined;
      throw error;
    });
    if (written) return { lead: written };
    const read = await readClaims(organizationId, contacts);
    const held = read.flatMap(({ contact, holder }) => (holder ? [{ contact, holder }] : []));
    if (held.length) return { held };
    // No claim is held by a lead that has its contact: try again over the stale ones.
    stale = read.flatMap(({ contact, leadId }) => (leadId ? [{ contact, leadId }] : []));
    throw new StaleWrite();
  });
}

/** 409 DUPLICATE_CONTACT: the contact belongs to another lead, named by `existingId` in the detail. */
export function duplicateContact({ contact, holder }: HeldContact): ApiError {
  const field = contact.kind === 'EMAIL' ? 'email' : 'phone';
  const message = `${field}: lead ${holder.id} already has this ${field}`;
  return new ApiError(409, message, 'DUPLICATE_CONTACT', [{ path: field, message, existingId: holder.id }]);
}

export async function getLead(organizationId: string, leadId: string): Promise<Lead | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, leadId), ConsistentRead: true }));
  return Item && fromLeadItem(Item);
}

/**
 * Writes the changed fields of a lead (never the whole item, so an inquiry recorded meanwhile keeps its
 * counts) on condition that its status, company, names and contacts are still those read. A new status or company
 * moves the list indexes and counters, a new company is checked, new names move the name items, a new email or
 * phone claims it (while free, or stale as `stale` read it; else ContactTaken) and a new phone takes its opt-out,
 * and `activity` is recorded, in one transaction. Throws StaleWrite when the lead changed or went meanwhile.
 * Answers the changes as written.
 */
export async function writeLeadChanges(organizationId: string, current: Lead, sent: Partial<Lead>, activity?: LeadActivity, stale: StaleClaim[] = []): Promise<Partial<Lead>> {
  // updatedAt moves the lead to the end of its change log (gsi6 sorts by it) and is the time of its lead.updated event.
  const changes = { ...sent, updatedAt: now() };
  const next = { ...current, ...changes };
  const moved = next.status !== current.status || next.companyId !== current.companyId;
  const indexes = moved ? leadKeys.leadIndexes(organizationId, next) : {};
  const phoneChanged = next.phone !== current.phone;
  const emailChanged = next.email !== current.email;
  const emailKey = emailChanged && next.email ? { [EMAIL_KEY]: next.email.toLowerCase() } : {};
  const taken = contactsOf(next).filter((contact) => !hasContact(current, contact));
  const others = [
    ...(moved ? counterMoves(organizationId, current, next) : []),
    // A claim left on a contact the lead no longer has is stale, and every claim reads it so; nothing removes it here.
    ...claimContacts(organizationId, current.id, taken, stale, () => new ContactTaken()),
    ...nameMoves(organizationId, current, next),
    ...(next.companyId !== current.companyId ? companyCheck(organizationId, next.companyId) : []),
    ...(activity ? [insertIfAbsent(toActivityItem(organizationId, activity)), counterUpdate(organizationId, leadCounterNames.activities(current.id), 1)] : []),
  ];
  const writeAs = async (written: Partial<Lead>) => {
    const update = setFields(leadKeys.lead(organizationId, current.id), { ...written, ...indexes, ...emailKey }, {
      remove: [
        ...(moved && !next.companyId && current.companyId ? ['gsi3pk', 'gsi3sk'] : []),
        ...(emailChanged && !next.email ? [EMAIL_KEY] : []),
      ],
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

/** The contacts a change gives the lead, as their claims now stand: which are held by another live lead, which stale. */
export async function claimsOfNewContacts(organizationId: string, current: Lead, next: Lead): Promise<{ held?: HeldContact; stale: StaleClaim[] }> {
  const read = await readClaims(organizationId, contactsOf(next).filter((contact) => !hasContact(current, contact)));
  const held = read.find(({ holder }) => holder && holder.id !== current.id);
  return { held: held && { contact: held.contact, holder: held.holder! }, stale: read.flatMap(({ contact, leadId }) => (leadId ? [{ contact, leadId }] : [])) };
}

/**
 * Each filter has its own index partition, newest first. A company's leads of one status are the company's partition
 * filtered (`pageOfFiltered`: a company has tens of leads); a third list index would cost every linked lead's writes
 * another copy.
 */
function listSource(organizationId: string, { status, companyId }: Partial<LeadFilters>): PageSource {
  if (!status && !companyId) return leadKeys.leads(organizationId);
  const index = leadKeys.leadIndexes(organizationId, { id: '', status: status ?? '', companyId: companyId ?? null });
  if (companyId) return { index: 'gsi3', pk: index.gsi3pk! };
  return { index: 'gsi2', pk: index.gsi2pk };
}

/** One Query and one counter read, whatever the filters. */
export async function listLeadsPage(organizationId: string, { status, companyId, ...request }: ListLeadsQuery): Promise<Page<Lead>> {
  const { page, limit } = request;
  const log = { partition: changeLogKey(organizationId, LEAD_CHANGES).gsi6pk, filters: { status, companyId } };
  const listed = (at: PageRequest) =>
    status && companyId
      ? pageOfFiltered(listSource(organizationId, { companyId }), (item) => item.status === status, `status=${status}`, at)
      : countedPage(listSource(organizationId, { status, companyId }), organizationId, leadCounterNames.leads({ status, companyId }), at);
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, listed);
  return { items: items.map(fromLeadItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
}

/** The list filters a search takes as well, applied to the matches before they are counted and paged. */
const passes =
  ({ status, companyId }: Partial<LeadFilters>) =>
  (match: { status?: unknown; companyId?: unknown }) =>
    (!status || match.status === status) && (!companyId || match.companyId === companyId);

/** A search's cursor belongs to its key range and its filters. */
const searchList = (source: PageSource, { status, companyId }: Partial<LeadFilters>): PageSource => ({ ...source, skPrefix: `${source.skPrefix ?? ''}?status=${status ?? ''}&companyId=${companyId ?? ''}` });

/**
 * The lead with this email (lower-cased) or phone (E.164), as a page: contacts are unique, so its claim names the one
 * lead that can have it (two consistent GetItems: the claim, then its lead), filtered and paged here.
 */
export async function leadsWithContactPage(organizationId: string, contact: LeadContact, filters: Partial<LeadFilters>, request: PageRequest): Promise<Page<Lead>> {
  const holder = await holderOf(organizationId, contact);
  const leads = holder ? [holder].filter(passes(filters)) : [];
  const claim = leadKeys.leadContact(organizationId, contact.kind, contact.value);
  const { items, totalCount, nextCursor } = await pageOfMatches(leads, (lead) => lead.id, searchList({ pk: claim.pk, skPrefix: claim.sk }, filters), request);
  return { items, totalCount, page: request.page, limit: request.limit, nextCursor };
}

/**
 * The leads with a name (first, last, or both together) starting with `prefix`, ignoring case and accents: one
 * consistent Query of the name items' key range (small items: the lead id, status and company), each lead once,
 * filtered, counted and paged here, then one BatchGetItem of the page's leads.
 */
export async function leadsByNamePage(organizationId: string, prefix: string, filters: Partial<LeadFilters>, request: PageRequest): Promise<Page<Lead>> {
  const source: PageSource = { ...leadKeys.leadNames(organizationId, prefix), consistentRead: true };
  const names = (await queryAll(source, ['leadId', 'status', 'companyId'])).filter(passes(filters));
  const { items, totalCount, nextCursor } = await pageOfMatches(names, (name) => String(name.leadId), searchList(source, filters), request);
  const found = items.length ? await batchGetItems(items.map((name) => leadKeys.lead(organizationId, String(name.leadId))), { consistentRead: true }) : [];
  const byId = new Map(found.map((item) => [String(item.id), fromLeadItem(item)]));
  return { items: items.flatMap((name) => byId.get(String(name.leadId)) ?? []), totalCount, page: request.page, limit: request.limit, nextCursor };
}

/**
 * The activity counter exists exactly while its lead does (both are written and removed in the
 * same transactions), so reading it answers "does this lead exist here?" without a third call.
 */
export async function listActivitiesPage(organizationId: string, leadId: string, request: PageRequest): Promise<Page<LeadActivity>> {
  const { page, limit } = request;
  const counter = leadCounterNames.activities(leadId);
  const log = { partition: (updatedSince: string, until: string) => leadKeys.activitiesSince(organizationId, leadId, updatedSince, until), ownerCounter: { organizationId, name: counter } };
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => countedPage(leadKeys.activities(organizationId, leadId), organizationId, counter, at));
  if (totalCount === undefined) throw leadNotFound();
  return { items: items.map(fromActivityItem), totalCount, page, limit, nextCursor };
}

/**
 * An activity added to an existing lead's timeline, counted: the activity counter exists exactly while the lead
 * does, so its move on condition that it exists is the lead's check (404 when it is gone), in the same transaction.
 */
export async function insertActivity(organizationId: string, activity: LeadActivity): Promise<void> {
  await transact([insertIfAbsent(toActivityItem(organizationId, activity)), counterUpdate(organizationId, leadCounterNames.activities(activity.leadId), 1, leadNotFound)]);
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
      deleteIfUnchanged(leadKeys.lead(organizationId, leadId), asRead(lead)),
      ...counterMoves(organizationId, lead, null),
      ...nameMoves(organizationId, lead, null),
      deleteItem(keys.counter(organizationId, leadCounterNames.activities(leadId))),
      // Its activities, removed after it, are the lead's: its entry stands for them.
      ...auditDeletion(organizationId, leadAudit, leadId),
    ]);
    return true;
  });
  await deleteItems((await queryAll(leadKeys.activities(organizationId, leadId), ['pk', 'sk'])) as unknown as Key[]);
  if (!found) throw leadNotFound();
}

function deleteIfUnchanged(key: Key, condition: Condition): TransactWrite {
  return {
    item: {
      Delete: {
        TableName: config.tableName,
        Key: key,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: condition.names,
        ExpressionAttributeValues: condition.values,
      },
    },
    onConditionFailed: () => new StaleWrite(),
  };
}

/**
 * The lead holding the first of these contacts that a lead holds (email before phone): every claim and its lead read
 * side by side, two round trips whatever the number of contacts.
 */
export async function holderOfFirst(organizationId: string, contacts: LeadContact[]): Promise<HeldContact | undefined> {
  const held = (await readClaims(organizationId, contacts)).find((claim): claim is HeldContact => claim.holder !== undefined);
  return held && { contact: held.contact, holder: held.holder };
}

/** The lead that last took this contact, if any has; it may since have been deleted or lost the contact. */
export async function leadOfContact(organizationId: string, { kind, value }: LeadContact): Promise<string | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.leadContact(organizationId, kind, value), ConsistentRead: true }));
  return Item ? String(Item.leadId) : undefined;
}

/** Whether the phone replied STOP (and not START since), whichever lead has it: one GetItem. */
export async function isPhoneOptedOut(organizationId: string, phone: string): Promise<boolean> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.smsOptOut(organizationId, phone), ProjectionExpression: 'pk' }));
  return Item !== undefined;
}

/** The lead with this phone (E.164): its claim, then the lead while it still has the phone. */
export const findLeadByPhone = (organizationId: string, phone: string) => holderOf(organizationId, { kind: 'PHONE', value: phone });

/**
 * The id of the lead that last took this phone, which may since have lost it (one consistent GetItem): for a read
 * that fetches the lead beside what it needs of it, and keeps it only while `hasContact` says it still holds it.
 */
export const claimedLeadIdOfPhone = (organizationId: string, phone: string) => leadOfContact(organizationId, { kind: 'PHONE', value: phone });

