/**
 * Every key format of the single table, in one place. Each base-table partition key starts with
 * the organization, so no access pattern can reach another organization's items.
 * docs/data-model.md lists which endpoint uses which key.
 */
const org = (organizationId: string) => `ORG#${organizationId}`;

/** Integer ids sort as text when zero-padded, so a descending query is newest first. */
export const pad = (n: number) => String(n).padStart(10, '0');

/**
 * Names are unique per organization ignoring case, spacing and invisible characters, however their
 * letters were composed: NFC, format characters (a zero-width space) read as space, runs of space as one.
 */
export const normalizeName = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[\s\p{Cf}]+/gu, ' ')
    .trim()
    .toLowerCase();

export interface Key {
  pk: string;
  sk: string;
}

/** A collection to query: a partition and, optionally, a sort-key prefix. */
export interface Collection {
  pk: string;
  skPrefix?: string;
}

/**
 * The names of counter items (`COUNT#<name>`), kept in step with their collection inside the same
 * transaction; lists read them for totalCount.
 */
export const counterNames = {
  /** One counter per lead list filter combination, so every filtered totalCount is one read. */
  leads: ({ status, companyId }: { status?: string; companyId?: string | null } = {}) =>
    ['LEADS', ...(companyId ? [`COMPANY#${companyId}`] : []), ...(status ? [`STATUS#${status}`] : [])].join('#'),
  activities: (leadId: string) => `ACTIVITIES#${leadId}`,
  members: 'MEMBERS',
  services: 'SERVICES',
  invitations: 'INVITATIONS',
  companies: 'COMPANIES',
  /** Every appointment, and those of one lead. */
  appointments: ({ leadId }: { leadId?: string } = {}) => (leadId ? `APPOINTMENTS#LEAD#${leadId}` : 'APPOINTMENTS'),
  /** A lead's inquiries with a flagging tag: hasFlaggedInquiry is whether it is above zero. */
  flaggedInquiries: (leadId: string) => `FLAGGED#${leadId}`,
  /** Exists exactly while the company does. */
  companyNotes: (companyId: string) => `NOTES#${companyId}`,
  policies: 'POLICIES',
  faqs: 'FAQS',
  webhooks: 'WEBHOOKS',
  inboundEndpoints: 'INBOUND_ENDPOINTS',
  /** One counter per inquiry list filter combination, so every filtered totalCount is one read. */
  inquiries: ({ leadId, source }: { leadId?: string; source?: string } = {}) =>
    ['INQUIRIES', ...(leadId ? [`LEAD#${leadId}`] : []), ...(source ? [`SOURCE#${source}`] : [])].join('#'),
} as const;

export const keys = {
  organization: (o: string): Key => ({ pk: org(o), sk: 'ORGANIZATION' }),
  /**
   * An SMS number's one owner: the organization whose smsSenderId it is, written in the same transaction as the
   * organization's change. Inbound SMS name only the number they were sent to, so this partition cannot start
   * with the organization; its item holds the organization's id and nothing else of it.
   */
  smsNumberClaim: (number: string): Key => ({ pk: `SMSNUMBER#${number}`, sk: 'CLAIM' }),
  apiKey: (o: string, keyId: string): Key => ({ pk: org(o), sk: `KEY#${keyId}` }),
  apiKeys: (o: string): Collection => ({ pk: org(o), skPrefix: 'KEY#' }),
  /** gsi1: token hash → key item, for the authorizer. */
  apiKeyByTokenHash: (hash: string) => ({ gsi1pk: `TOKEN#${hash}`, gsi1sk: 'KEY' }),

  counter: (o: string, name: string): Key => ({ pk: org(o), sk: `COUNT#${name}` }),
  /** Shard `shard` of a sharded counter: shard 0 is the counter's own item; the others sit in partitions of their own. */
  counterShard: (o: string, name: string, shard: number): Key => (shard === 0 ? keys.counter(o, name) : { pk: `${org(o)}#SHARD#${shard}`, sk: `COUNT#${name}` }),
  sequence: (o: string, kind: string): Key => ({ pk: org(o), sk: `SEQ#${kind}` }),

  lead: (o: string, leadId: string): Key => ({ pk: org(o), sk: `LEAD#${leadId}` }),
  leads: (o: string): Collection => ({ pk: org(o), skPrefix: 'LEAD#' }),
  /**
   * The lead list indexes: by status (gsi2), by company (gsi3) and by both (gsi4), sort key the lead id
   * (a ULID, so newest first). A lead without a company has no gsi3/gsi4 keys.
   */
  leadIndexes: (o: string, lead: { id: string; status: string; companyId: string | null }) => ({
    gsi2pk: `${org(o)}#LEADS#STATUS#${lead.status}`,
    gsi2sk: lead.id,
    ...(lead.companyId
      ? {
          gsi3pk: `${org(o)}#LEADS#COMPANY#${lead.companyId}`,
          gsi3sk: lead.id,
          gsi4pk: `${org(o)}#LEADS#COMPANY#${lead.companyId}#STATUS#${lead.status}`,
          gsi4sk: lead.id,
        }
      : {}),
  }),
  /** gsi5: the organization's leads by email, lower-cased, newest first: how an ingested inquiry finds its lead. */
  leadEmailIndex: (o: string, lead: { id: string; email: string }) => ({ gsi5pk: `${org(o)}#LEADS#EMAIL#${lead.email.toLowerCase()}`, gsi5sk: lead.id }),
  /** The lead that last took a contact (EMAIL or PHONE), so concurrent ingestions for a new contact create one lead. */
  leadContact: (o: string, kind: 'EMAIL' | 'PHONE', value: string): Key => ({ pk: org(o), sk: `LEADCONTACT#${kind}#${value}` }),
  /** An ingested inquiry's id in the system it came from, per source → the inquiry: a repeat answers the first. */
  externalInquiry: (o: string, source: string, externalId: string): Key => ({ pk: org(o), sk: `EXTINQUIRY#${source}#${externalId}` }),
  /** gsi1: the organization's leads by phone (E.164), newest first: how an inbound SMS finds its lead. */
  leadPhoneIndex: (o: string, lead: { id: string; phone: string }) => ({ gsi1pk: `${org(o)}#LEADS#PHONE#${lead.phone}`, gsi1sk: lead.id }),
  activity: (o: string, leadId: string, id: number): Key => ({ pk: `${org(o)}#LEAD#${leadId}`, sk: `ACTIVITY#${pad(id)}` }),
  activities: (o: string, leadId: string): Collection => ({ pk: `${org(o)}#LEAD#${leadId}`, skPrefix: 'ACTIVITY#' }),

  /** Members with a user account; pending invitations live under INVITATION# and are never listed. */
  member: (o: string, id: number): Key => ({ pk: org(o), sk: `MEMBER#${pad(id)}` }),
  members: (o: string): Collection => ({ pk: org(o), skPrefix: 'MEMBER#' }),
  invitation: (o: string, id: number): Key => ({ pk: org(o), sk: `INVITATION#${pad(id)}` }),
  invitations: (o: string): Collection => ({ pk: org(o), skPrefix: 'INVITATION#' }),
  /** An email address taken by a member or a pending invitation, ignoring case. */
  memberEmail: (o: string, email: string): Key => ({ pk: org(o), sk: `MEMBEREMAIL#${normalizeName(email)}` }),
  /** user_… → its member, so POST /v1/sms can check the sender in one read. */
  user: (o: string, userId: string): Key => ({ pk: org(o), sk: `USER#${userId}` }),

  company: (o: string, companyId: string): Key => ({ pk: org(o), sk: `COMPANY#${companyId}` }),
  companies: (o: string): Collection => ({ pk: org(o), skPrefix: 'COMPANY#' }),
  companyNote: (o: string, companyId: string, id: number): Key => ({ pk: `${org(o)}#COMPANY#${companyId}`, sk: `NOTE#${pad(id)}` }),
  companyNotes: (o: string, companyId: string): Collection => ({ pk: `${org(o)}#COMPANY#${companyId}`, skPrefix: 'NOTE#' }),

  service: (o: string, id: number): Key => ({ pk: org(o), sk: `SERVICE#${pad(id)}` }),
  services: (o: string): Collection => ({ pk: org(o), skPrefix: 'SERVICE#' }),
  serviceName: (o: string, name: string): Key => ({ pk: org(o), sk: `SERVICENAME#${normalizeName(name)}` }),
  scenario: (o: string, id: number): Key => ({ pk: org(o), sk: `SCENARIO#${pad(id)}` }),

  product: (o: string, id: number): Key => ({ pk: org(o), sk: `PRODUCT#${pad(id)}` }),
  productName: (o: string, name: string): Key => ({ pk: org(o), sk: `PRODUCTNAME#${normalizeName(name)}` }),

  transfer: (o: string, id: number): Key => ({ pk: org(o), sk: `TRANSFER#${pad(id)}` }),
  transferLabel: (o: string, label: string): Key => ({ pk: org(o), sk: `TRANSFERLABEL#${normalizeName(label)}` }),

  policy: (o: string, id: number): Key => ({ pk: org(o), sk: `POLICY#${pad(id)}` }),
  policies: (o: string): Collection => ({ pk: org(o), skPrefix: 'POLICY#' }),
  faq: (o: string, id: number): Key => ({ pk: org(o), sk: `FAQ#${pad(id)}` }),
  faqs: (o: string): Collection => ({ pk: org(o), skPrefix: 'FAQ#' }),

  /**
   * An inquiry's item collection: the summary (INQUIRY), its populated source record (SOURCE) and,
   * for SMS, its messages (MESSAGE#<ulid>). A single read is one Query of this partition.
   */
  inquiry: (o: string, inquiryId: string): Key => ({ pk: `${org(o)}#INQUIRY#${inquiryId}`, sk: 'INQUIRY' }),
  inquirySource: (o: string, inquiryId: string): Key => ({ pk: `${org(o)}#INQUIRY#${inquiryId}`, sk: 'SOURCE' }),
  inquiryMessage: (o: string, inquiryId: string, messageId: string): Key => ({ pk: `${org(o)}#INQUIRY#${inquiryId}`, sk: `MESSAGE#${messageId}` }),
  inquiryCollection: (o: string, inquiryId: string): Collection => ({ pk: `${org(o)}#INQUIRY#${inquiryId}` }),
  /** The four list indexes of an inquiry summary; each list filter combination is one index partition. */
  inquiryIndexes: (o: string, inquiry: { id: string; source: string; leadId: string }) => ({
    gsi1pk: `${org(o)}#INQUIRIES`,
    gsi1sk: inquiry.id,
    gsi2pk: `${org(o)}#INQUIRIES#SOURCE#${inquiry.source}`,
    gsi2sk: inquiry.id,
    gsi3pk: `${org(o)}#INQUIRIES#LEAD#${inquiry.leadId}`,
    gsi3sk: inquiry.id,
    gsi4pk: `${org(o)}#INQUIRIES#LEAD#${inquiry.leadId}#SOURCE#${inquiry.source}`,
    gsi4sk: inquiry.id,
  }),
  appointment: (o: string, appointmentId: string): Key => ({ pk: org(o), sk: `APPOINTMENT#${appointmentId}` }),
  /** The appointment lists by start time: all (gsi1) and one lead's (gsi2); the sort key is startsAt#id. */
  appointmentIndexes: (o: string, appointment: { id: string; leadId: string; startsAt: string }) => ({
    gsi1pk: `${org(o)}#APPOINTMENTS`,
    gsi1sk: `${appointment.startsAt}#${appointment.id}`,
    gsi2pk: `${org(o)}#APPOINTMENTS#LEAD#${appointment.leadId}`,
    gsi2sk: `${appointment.startsAt}#${appointment.id}`,
  }),
  /**
   * A member's schedule: one BOOKING item per booked appointment, sorted by start, and a HEAD item whose
   * version every booking of the member moves, so two overlapping bookings cannot both pass the check.
   */
  booking: (o: string, userId: string, startsAt: string, appointmentId: string): Key => ({ pk: `${org(o)}#SCHEDULE#${userId}`, sk: `BOOKING#${startsAt}#${appointmentId}` }),
  bookingsStartingBetween: (o: string, userId: string, from: string, to: string) => ({ pk: `${org(o)}#SCHEDULE#${userId}`, skBetween: [`BOOKING#${from}`, `BOOKING#${to}`] as [string, string] }),
  scheduleHead: (o: string, userId: string): Key => ({ pk: `${org(o)}#SCHEDULE#${userId}`, sk: 'HEAD' }),

  /** A request's Idempotency-Key and the answer it got, per organization. */
  idempotency: (o: string, key: string): Key => ({ pk: org(o), sk: `IDEMPOTENCY#${key}` }),

  /** SMS thread → its lead and inquiry, for appending to a thread. */
  thread: (o: string, threadId: string): Key => ({ pk: org(o), sk: `THREAD#${threadId}` }),
  /**
   * gsi1: outbound SMS recorded QUEUED that no provider answer has moved yet, across organizations (the sweep that
   * settles them serves no organization's request), by when they were recorded. Spread over a few partitions; a
   * message leaves the index at its first status move.
   */
  smsAwaitingProvider: (shard: number, createdAt = '', messageId = '') => ({ gsi1pk: `SMSQUEUED#${shard}`, gsi1sk: `${createdAt}#${messageId}` }),
  /** A phone that replied STOP: no SMS goes to it, whichever lead holds it, until it replies START. */
  smsOptOut: (o: string, phone: string): Key => ({ pk: org(o), sk: `SMSOPTOUT#${phone}` }),
  /** A reply's inbound message id at the provider, taken when the reply is recorded: a redelivery finds it taken. */
  inboundSms: (o: string, providerMessageId: string): Key => ({ pk: org(o), sk: `INBOUNDSMS#${providerMessageId}` }),

  /**
   * The organization's events, newest first, in a partition of their own (evt_ ids are ULIDs), and by
   * type in gsi1; events expire after 30 days (TTL), so the lists read a window of ids.
   */
  event: (o: string, eventId: string): Key => ({ pk: `${org(o)}#EVENTS`, sk: `EVENT#${eventId}` }),
  eventsBetween: (o: string, fromId: string, toId: string) => ({ pk: `${org(o)}#EVENTS`, skBetween: [`EVENT#${fromId}`, `EVENT#${toId}`] as [string, string] }),
  eventIndexes: (o: string, event: { id: string; type: string }) => ({ gsi1pk: `${org(o)}#EVENTS#TYPE#${event.type}`, gsi1sk: event.id }),
  /** Inbound endpoints: URLs that senders without an API key post inquiries to. */
  inboundEndpoint: (o: string, endpointId: string): Key => ({ pk: org(o), sk: `INBOUND#${endpointId}` }),
  inboundEndpoints: (o: string): Collection => ({ pk: org(o), skPrefix: 'INBOUND#' }),
  /** gsi1: an inbound endpoint by its id alone, for POST /v1/inbound/{id}, which carries no API key to name the organization. */
  inboundEndpointById: (endpointId: string) => ({ gsi1pk: `INBOUND#${endpointId}`, gsi1sk: 'ENDPOINT' }),
  /** Webhook subscriptions: few per organization (at most 16), read whole when events fan out. */
  webhook: (o: string, webhookId: string): Key => ({ pk: org(o), sk: `WEBHOOK#${webhookId}` }),
  webhooks: (o: string): Collection => ({ pk: org(o), skPrefix: 'WEBHOOK#' }),
  /** A subscription's delivery attempts, newest first; kept 30 days (TTL). */
  webhookDelivery: (o: string, webhookId: string, deliveryId: string): Key => ({ pk: `${org(o)}#WEBHOOK#${webhookId}`, sk: `DELIVERY#${deliveryId}` }),
  webhookDeliveriesBetween: (o: string, webhookId: string, fromId: string, toId: string) => ({ pk: `${org(o)}#WEBHOOK#${webhookId}`, skBetween: [`DELIVERY#${fromId}`, `DELIVERY#${toId}`] as [string, string] }),
  eventsOfTypeBetween: (o: string, type: string, fromId: string, toId: string) => ({ pk: `${org(o)}#EVENTS#TYPE#${type}`, skBetween: [fromId, toId] as [string, string] }),
} as const;
