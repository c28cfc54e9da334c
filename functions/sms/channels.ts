import type { TopicChannelDefinition } from '#shared/resource';
import { smsConfigurationSetName } from './capability';
import { RECEIPT_EVENT_TYPES } from './receipt-types';

/**
 * Where `npm start` takes a simulated text, a lead's reply or a new customer's first: `{from, to, body}` as JSON, and
 * optionally the provider's `inboundMessageId` (a new one otherwise), so a redelivery of one text can be simulated.
 * Not part of the API.
 */
export const LOCAL_INBOUND_SMS_PATH = '/local/sms/inbound';

/** End User Messaging publishes to the SMS topics, from this account only. */
const publishedBy = 'sms-voice.amazonaws.com';

/**
 * SMS delivery receipts: the configuration set's events. Under `npm start` the local carrier hands each receipt to
 * the receipts worker's code.
 */
export const smsEvents: TopicChannelDefinition = {
  kind: 'topic',
  name: 'smsEvents',
  id: 'SmsEvents',
  displayName: 'SMS delivery receipts',
  publishedBy,
  configurationSet: { id: 'SmsConfigurationSet', name: smsConfigurationSetName, destination: 'receipts', eventTypes: RECEIPT_EVENT_TYPES },
  local: { install: 'local-provider#setLocalReceiptHandler' },
};

/**
 * Replies from leads: point each phone number's two-way channel at the InboundSmsTopic output. Under `npm start` a
 * reply is POSTed to LOCAL_INBOUND_SMS_PATH instead.
 */
export const inboundSms: TopicChannelDefinition = {
  kind: 'topic',
  name: 'inboundSms',
  id: 'InboundSms',
  displayName: 'SMS replies from leads',
  publishedBy,
  output: { id: 'InboundSmsTopic', description: 'Set as the two-way SMS channel of the organization numbers, so replies reach the inbound function' },
  local: { post: LOCAL_INBOUND_SMS_PATH, simulate: 'local-inbound#simulateInboundSms' },
};
