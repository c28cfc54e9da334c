import * as v from 'valibot';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Key, type KeySamples } from '#shared/store/keys';
import { smsMessageRefOf } from '../inquiries/entity';
import { Sms } from './schema';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

/**
 * The SMS resource's own items. A message is an item of its inquiry, and its thread and the index of messages
 * awaiting their provider are the inquiry's (`inquiryKeys`); a phone's opt-out is written with the lead's phone
 * (`leadKeys.smsOptOut`).
 */
export const smsKeys = {
  /** A reply's inbound message id at the provider, taken when the reply is recorded: a redelivery finds it taken. */
  inboundSms: (o: string, providerMessageId: string): Key => ({ pk: org(o), sk: `INBOUNDSMS#${providerMessageId}` }),
  /** An outbound message its send gave up recording: the transaction that records it checks this is absent, so a write still in flight never lands. */
  abandonedSms: (o: string, messageId: string): Key => ({ pk: org(o), sk: `SMSABANDONED#${messageId}` }),
  /** An automation's message, by the id its step derives: written with the message, it says where that is (its inquiry), so the step run again sends nothing. */
  automatedSms: (o: string, messageId: string): Key => ({ pk: org(o), sk: `AUTOSMS#${messageId}` }),
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const smsKeySamples: KeySamples<typeof smsKeys> = {
  inboundSms: () => smsKeys.inboundSms(O, 'a1b2c3d4-0000-4000-8000-000000000000'),
  abandonedSms: () => smsKeys.abandonedSms(O, 'message_1'),
  automatedSms: () => smsKeys.automatedSms(O, 'message_1'),
};

/**
 * A message item (`SMS_MESSAGE`, the inquiry's: functions/inquiries/entity.ts) as the SMS resource shows it. Its
 * lead and inquiry are attributes of the item; its inquiry is also its partition.
 */
export const fromSmsItem = (item: Record<string, unknown>): Sms =>
  v.parse(Sms, { ...item, messageThreadId: item.threadId, inquiryId: item.inquiryId ?? smsMessageRefOf(item).inquiryId });

/** An SMS message, sent or received (its items are written with its inquiry's, functions/inquiries/entity.ts), as the audit log names it (GET /v1/audit-log). */
export const smsAudit: AuditedRecord = { entity: 'SMS_MESSAGE', resourceType: 'sms' };
