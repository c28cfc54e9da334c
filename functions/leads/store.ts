import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { activityChanges, LEAD_CHANGES, contactIndexAttribute, contactsOf, fromActivityItem, fromLeadItem, hasContact, leadCounterNames, leadKeys, sameContact, toActivityItem, toLeadContactItem, toLeadItem, type LeadContact } from './entity';
import { keys, type Key } from '../../shared/store/keys';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
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

export const ACTIVITY_SEQUENCE = 'ACTIVITY';

const leadNotFound = () => new NotFoundError('Lead not found');

type LeadFilters = Pick<Lead, 'status' | 'companyId'>;

/** The counters a lead counts in: every lead, its status, and with a company, its company and company + status. */
function countersOf({ status, companyId }: LeadFilters): string[] {
  const names = [leadCounterNames.leads(), leadCounterNames.leads({ status })];
  if (companyId) names.push(leadCounterNames.leads({ companyId }), leadCounterNames.leads({ companyId, status }));
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

/** The lead still has the status and company it was read with, so the counters it moves are the right ones. */
function unchanged({ status, companyId }: LeadFilters): Condition {
  const company = companyId === null ? '(attribute_not_exists(#companyId) OR attribute_type(#companyId, :nullType))' : '#companyId = :companyId';
  return {
    expression: `#status = :status AND ${company}`,
    names: { '#status': 'status', '#companyId': 'companyId' },
    values: { ':status': status, ...(companyId === null ? { ':nullType': 'NULL' } : { ':companyId': companyId }) },
  };
}

/** Points the claims of these contacts at the lead, whichever lead held them: the lead that last took a contact holds it. */
function takeContacts(organizationId: string, leadId: string, contacts: LeadContact[]): TransactWrite[] {
  return contacts.map((contact) => ({ item: { Put: { TableName: config.tableName, Item: toLeadContactItem(organizationId, contact, leadId) } } }));
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
  // One check per stale lead: a transaction may name an item only once.
  const checks = [...new Set(stale.map((claim) => claim.leadId))].map((staleLeadId): TransactWrite => {
    const attributes = stale.filter((claim) => claim.leadId === staleLeadId).map((claim) => contactIndexAttribute(organizationId, claim.contact));
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
 * The lead, its first activity, and the lead and activity counters, in one transaction; a linked company must
 * exist. The lead takes the claims of its contacts unless the caller claims them on its own terms, and its
 * phone's opt-out. Answers the lead as written.
 */
export async function insertLeadWithActivity(organizationId: string, lead: Lead, activity: LeadActivity, claims = takeContacts(organizationId, lead.id, contactsOf(lead))): Promise<Lead> {
  const writeAs = (written: Lead) =>
    transact([
      ...claims,
      insertIfAbsent(toLeadItem(organizationId, written)),
      insertIfAbsent(toActivityItem(organizationId, activity)),
      ...companyCheck(organizationId, lead.companyId),
      ...counterMoves(organizationId, null, lead),
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

export async function getLead(organizationId: string, leadId: string): Promise<Lead | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.lead(organizationId, leadId), ConsistentRead: true }));
  return Item && fromLeadItem(Item);
}

/**
 * Writes the changed fields of a lead (never the whole item, so an inquiry recorded meanwhile keeps its
 * counts) on condition that its status and company are still those read. A new status or company moves
 * the list indexes and counters, a new company is checked, a new email or phone takes its claim (and a new
 * phone its opt-out), and `activity` is recorded, in one transaction. Throws StaleWrite when the lead changed
 * or went meanwhile. Answers the changes as written.
 */
export async function writeLeadChanges(organizationId: string, current: Lead, sent: Partial<Lead>, activity?: LeadActivity): Promise<Partial<Lead>> {
  // updatedAt moves the lead to the end of its change log (gsi6 sorts by it) and is the time of its lead.updated event.
  const changes = { ...sent, updatedAt: now() };
  const next = { ...current, ...changes };
  const moved = next.status !== current.status || next.companyId !== current.companyId;
  const indexes = moved ? leadKeys.leadIndexes(organizationId, next) : {};
  const phoneChanged = next.phone !== current.phone;
  const phoneIndex = phoneChanged && next.phone ? leadKeys.leadPhoneIndex(organizationId, { id: next.id, phone: next.phone }) : {};
  const emailChanged = next.email !== current.email;
  const emailIndex = emailChanged && next.email ? leadKeys.leadEmailIndex(organizationId, { id: next.id, email: next.email }) : {};
  const taken = contactsOf(next).filter((contact) => !hasContact(current, contact));
  const others = [
    ...(moved ? counterMoves(organizationId, current, next) : []),
    // A claim left on a contact the lead no longer has is stale, and ingestion reads it so; nothing removes it here.
    ...takeContacts(organizationId, current.id, taken),
    ...(next.companyId !== current.companyId ? companyCheck(organizationId, next.companyId) : []),
    ...(activity ? [insertIfAbsent(toActivityItem(organizationId, activity)), counterUpdate(organizationId, leadCounterNames.activities(current.id), 1)] : []),
  ];
  const writeAs = async (written: Partial<Lead>) => {
    const update = setFields(leadKeys.lead(organizationId, current.id), { ...written, ...indexes, ...phoneIndex, ...emailIndex }, {
      remove: [
        ...(moved && !next.companyId && current.companyId ? ['gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk'] : []),
        ...(phoneChanged && !next.phone ? ['gsi1pk', 'gsi1sk'] : []),
        ...(emailChanged && !next.email ? ['gsi5pk', 'gsi5sk'] : []),
      ],
      condition: unchanged(current),
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

/** Each filter combination has its own index partition, newest first. */
function listSource(organizationId: string, { status, companyId }: Partial<LeadFilters>): PageSource {
  if (!status && !companyId) return leadKeys.leads(organizationId);
  const index = leadKeys.leadIndexes(organizationId, { id: '', status: status ?? '', companyId: companyId ?? null });
  if (companyId && status) return { index: 'gsi4', pk: index.gsi4pk! };
  if (companyId) return { index: 'gsi3', pk: index.gsi3pk! };
  return { index: 'gsi2', pk: index.gsi2pk };
}

/** One Query and one counter read, whatever the filters. */
export async function listLeadsPage(organizationId: string, { status, companyId, ...request }: ListLeadsQuery): Promise<Page<Lead>> {
  const { page, limit } = request;
  const log = { partition: changeLogKey(organizationId, LEAD_CHANGES).gsi6pk, filters: { status, companyId } };
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => countedPage(listSource(organizationId, { status, companyId }), organizationId, leadCounterNames.leads({ status, companyId }), at));
  return { items: items.map(fromLeadItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
}

/**
 * The activity counter exists exactly while its lead does (both are written and removed in the
 * same transactions), so reading it answers "does this lead exist here?" without a third call.
 */
export async function listActivitiesPage(organizationId: string, leadId: string, request: PageRequest): Promise<Page<LeadActivity>> {
  const { page, limit } = request;
  const counter = leadCounterNames.activities(leadId);
  const log = { partition: changeLogKey(organizationId, activityChanges(leadId)).gsi6pk, ownerCounter: { organizationId, name: counter } };
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
 * Reads the lead (its status and company name the counters it leaves), removes it and its counters
 * atomically on condition that neither changed meanwhile, then its activity records. A retried delete
 * whose first attempt stopped after the transaction answers 404 and still finishes removing them.
 */
export async function deleteLeadWithActivities(organizationId: string, leadId: string): Promise<void> {
  const found = await retryOnStaleWrite(async () => {
    const lead = await getLead(organizationId, leadId);
    if (!lead) return false;
    await transact([
      deleteIfUnchanged(leadKeys.lead(organizationId, leadId), unchanged(lead)),
      ...counterMoves(organizationId, lead, null),
      deleteItem(keys.counter(organizationId, leadCounterNames.activities(leadId))),
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

/** The organization's newest lead with this email, ignoring case: one Query of the email index. */
export async function findLeadByEmail(organizationId: string, email: string): Promise<Lead | undefined> {
  const { gsi5pk } = leadKeys.leadEmailIndex(organizationId, { id: '', email });
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, IndexName: 'gsi5', KeyConditionExpression: 'gsi5pk = :pk', ExpressionAttributeValues: { ':pk': gsi5pk }, ScanIndexForward: false, Limit: 1 }),
  );
  return Items?.[0] && getLead(organizationId, String(Items[0].id));
}

/** The lead that last took this contact, if any has; it may since have been deleted or lost the contact. */
export async function leadOfContact(organizationId: string, { kind, value }: LeadContact): Promise<string | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.leadContact(organizationId, kind, value), ConsistentRead: true }));
  return Item ? String(Item.leadId) : undefined;
}

/** The organization's newest lead with this phone number (E.164): one Query of the phone index. */
export async function findLeadByPhone(organizationId: string, phone: string): Promise<Lead | undefined> {
  const { gsi1pk } = leadKeys.leadPhoneIndex(organizationId, { id: '', phone });
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk }, ScanIndexForward: false, Limit: 1 }),
  );
  return Items?.[0] && getLead(organizationId, String(Items[0].id));
}

