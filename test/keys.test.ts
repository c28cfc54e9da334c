import { describe, expect, it } from 'vitest';
import { keys } from '../shared/store/keys';

const O = 'org_01JA0000000000000000000000';
const LEAD = { id: 'lead_1', status: 'NEW', companyId: 'company_1', leadId: 'lead_1', source: 'CALL', startsAt: '2026-12-01T00:00:00.000Z' };

/** One call of every key builder, as the code calls it. A builder added without a line here fails the last test. */
const SAMPLES: { [K in keyof typeof keys]: () => object } = {
  organization: () => keys.organization(O),
  smsNumberClaim: () => keys.smsNumberClaim('+61412345678'),
  apiKey: () => keys.apiKey(O, 'key_1'),
  apiKeys: () => keys.apiKeys(O),
  apiKeyByTokenHash: () => keys.apiKeyByTokenHash('abc'),
  counter: () => keys.counter(O, 'LEADS'),
  counterShard: () => keys.counterShard(O, 'LEADS', 3),
  sequence: () => keys.sequence(O, 'LEAD'),
  lead: () => keys.lead(O, 'lead_1'),
  leadEmailIndex: () => keys.leadEmailIndex(O, { id: 'lead_1', email: 'Jane@Example.com' }),
  leadContact: () => keys.leadContact(O, 'EMAIL', 'jane@example.com'),
  externalInquiry: () => keys.externalInquiry(O, 'CALL', 'call-123'),
  leadPhoneIndex: () => keys.leadPhoneIndex(O, { id: 'lead_1', phone: '+61412345678' }),
  leads: () => keys.leads(O),
  leadIndexes: () => keys.leadIndexes(O, LEAD),
  activity: () => keys.activity(O, 'lead_1', 1),
  activities: () => keys.activities(O, 'lead_1'),
  member: () => keys.member(O, 1),
  members: () => keys.members(O),
  invitation: () => keys.invitation(O, 1),
  invitations: () => keys.invitations(O),
  memberEmail: () => keys.memberEmail(O, 'a@example.com'),
  user: () => keys.user(O, 'user_1'),
  company: () => keys.company(O, 'company_1'),
  companies: () => keys.companies(O),
  companyNote: () => keys.companyNote(O, 'company_1', 1),
  companyNotes: () => keys.companyNotes(O, 'company_1'),
  service: () => keys.service(O, 1),
  services: () => keys.services(O),
  serviceName: () => keys.serviceName(O, 'Drains'),
  scenario: () => keys.scenario(O, 1),
  product: () => keys.product(O, 1),
  productName: () => keys.productName(O, 'Tap'),
  transfer: () => keys.transfer(O, 1),
  transferLabel: () => keys.transferLabel(O, 'Urgent'),
  policy: () => keys.policy(O, 1),
  policies: () => keys.policies(O),
  faq: () => keys.faq(O, 1),
  faqs: () => keys.faqs(O),
  inquiry: () => keys.inquiry(O, 'inquiry_1'),
  inquirySource: () => keys.inquirySource(O, 'inquiry_1'),
  inquiryMessage: () => keys.inquiryMessage(O, 'inquiry_1', 'message_1'),
  inquiryCollection: () => keys.inquiryCollection(O, 'inquiry_1'),
  inquiryIndexes: () => keys.inquiryIndexes(O, LEAD),
  appointment: () => keys.appointment(O, 'appointment_1'),
  appointmentIndexes: () => keys.appointmentIndexes(O, LEAD),
  booking: () => keys.booking(O, 'user_1', LEAD.startsAt, 'appointment_1'),
  bookingsStartingBetween: () => keys.bookingsStartingBetween(O, 'user_1', 'a', 'b'),
  scheduleHead: () => keys.scheduleHead(O, 'user_1'),
  idempotency: () => keys.idempotency(O, 'k'),
  thread: () => keys.thread(O, 'thread_1'),
  smsOptOut: () => keys.smsOptOut(O, '+61412345678'),
  smsAwaitingProvider: () => keys.smsAwaitingProvider(2, '2026-12-01T00:00:00.000Z', 'message_1'),
  inboundSms: () => keys.inboundSms(O, 'a1b2c3d4-0000-4000-8000-000000000000'),
  event: () => keys.event(O, 'evt_1'),
  eventsBetween: () => keys.eventsBetween(O, 'evt_0', 'evt_9'),
  eventIndexes: () => keys.eventIndexes(O, { id: 'evt_1', type: 'lead.created' }),
  inboundEndpoint: () => keys.inboundEndpoint(O, 'inbound_1'),
  inboundEndpoints: () => keys.inboundEndpoints(O),
  inboundEndpointById: () => keys.inboundEndpointById('inbound_1'),
  webhook: () => keys.webhook(O, 'webhook_1'),
  webhooks: () => keys.webhooks(O),
  webhookDelivery: () => keys.webhookDelivery(O, 'webhook_1', 'delivery_1'),
  webhookDeliveriesBetween: () => keys.webhookDeliveriesBetween(O, 'webhook_1', 'delivery_0', 'delivery_9'),
  eventsOfTypeBetween: () => keys.eventsOfTypeBetween(O, 'lead.created', 'evt_0', 'evt_9'),
};

/**
 * The named exceptions: the authorizer finds a key's organization from its token, an inbound SMS from the number it
 * was sent to, an inbound post from its endpoint id, and the sweep of unanswered SMS serves every organization at
 * once. Their partitions cannot start with the organization.
 */
const WITHOUT_ORGANIZATION = {
  apiKeyByTokenHash: { gsi1pk: 'TOKEN#abc', gsi1sk: 'KEY' },
  smsNumberClaim: { pk: 'SMSNUMBER#+61412345678', sk: 'CLAIM' },
  inboundEndpointById: { gsi1pk: 'INBOUND#inbound_1', gsi1sk: 'ENDPOINT' },
  smsAwaitingProvider: { gsi1pk: 'SMSQUEUED#2', gsi1sk: '2026-12-01T00:00:00.000Z#message_1' },
} as const;

describe('every key the table is written and read with', () => {
  it.each(Object.entries(SAMPLES).filter(([name]) => !(name in WITHOUT_ORGANIZATION)))('%s: every partition key starts with the organization', (_, sample) => {
    const built = sample();
    const partitions = Object.entries(built).filter(([attribute]) => attribute === 'pk' || /^gsi\dpk$/.test(attribute));
    expect(partitions.length).toBeGreaterThan(0);
    for (const [attribute, value] of partitions) expect(String(value), attribute).toMatch(new RegExp(`^ORG#${O}(#|$)`));
  });

  it.each(Object.entries(WITHOUT_ORGANIZATION))('%s: a named exception, keyed by exactly what its caller knows and nothing of an organization', (name, expected) => {
    expect(SAMPLES[name as keyof typeof SAMPLES]()).toEqual(expected);
  });

  it('has a sample for every key builder', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(keys).sort());
  });
});
