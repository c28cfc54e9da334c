import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { logger } from '#shared/observability';
import { clock } from '#shared/clock';
import { insertIfAbsent, writeAloneWhereHolds, conditionNotHeld } from '#shared/store/transact';
import type { Event } from '../events/schema';
import { OWNER_ALERTS } from './owner-alert-texts';
import { isPhoneOptedOut } from '../leads/opt-out';
import { automatedRecordExpiry, notifyMember } from './automated';
import { organizationKeys } from '../organization/entity';
import { listAllMembers } from '../organization/member-store';
import { fromOrganizationItem } from '../organization/schema';

/** Who is alerted: the organization's admins, its owners (there is no role above ADMIN). */
const ALERTED_ROLES = new Set(['ADMIN']);

/** What became of one admin's alert, kept on its marker: a replayed event finds it and sends nothing again. */
type Skipped = 'OPTED_OUT' | 'NO_SMS_NUMBER';

/**
 * Marks an alert that was not sent, once: with `NO_SMS_NUMBER` the organization has no number to text from, with
 * `OPTED_OUT` the admin's phone said STOP. The marker is the one notifyMember would have put, so a replay skips it.
 */
async function recordSkipped(markerKey: { pk: string; sk: string }, memberId: number, reason: Skipped): Promise<void> {
  const atMs = clock.now();
  // Kept as long as a sent one's marker, far past any replay of the event.
  const marker = { ...markerKey, entity: 'MEMBER_NOTIFICATION', status: 'SKIPPED', reason, memberId, createdAt: new Date(atMs).toISOString(), ...automatedRecordExpiry(atMs) };
  await writeAloneWhereHolds(insertIfAbsent(marker, conditionNotHeld));
}

/**
 * Alerts the organization's admins of each event an entry names: one SMS each to every admin with a phone, from the
 * organization's SMS number, at most once per event and admin however often the event is handed again. Nothing while
 * the organization's `ownerAlertsSms` is off.
 */
export async function alertOwners(events: readonly Event[]): Promise<void> {
  for (const event of events) {
    const text = OWNER_ALERTS[event.type]?.(event);
    if (!text) continue;
    const { organizationId } = event;
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ConsistentRead: true }));
    if (!Item) continue;
    const organization = fromOrganizationItem(Item);
    if (!organization.ownerAlertsSms) continue;
    const admins = (await listAllMembers(organizationId)).filter((member) => ALERTED_ROLES.has(member.role) && member.phone && !member.isDisabled);
    for (const admin of admins) {
      const markerKey = organizationKeys.ownerAlert(organizationId, event.id, admin.id);
      const skipped: Skipped | undefined = !organization.smsSenderId ? 'NO_SMS_NUMBER' : (await isPhoneOptedOut(organizationId, admin.phone!)) ? 'OPTED_OUT' : undefined;
      if (skipped) {
        await recordSkipped(markerKey, admin.id, skipped);
        logger.info('owner alert not sent', { organizationId, eventId: event.id, memberId: admin.id, reason: skipped });
        continue;
      }
      const outcome = await notifyMember({ organizationId, memberId: admin.id, body: text, markerKey });
      if (!outcome.sent) logger.warn('owner alert not sent', { organizationId, eventId: event.id, memberId: admin.id, reason: outcome.refusal });
    }
  }
}
