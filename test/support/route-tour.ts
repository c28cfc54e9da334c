import { routes } from '../../functions/resources';
import { newId } from '../../shared/ids';
import type { RouteDefinition } from '../../shared/routes/route';
import { measureDynamoCalls, type DynamoCall } from './dynamo-calls';

/** What the tour needs of an HTTP client: the test client and the benchmark's both fit. */
export interface TourClient {
  get: (path: string) => Promise<{ status: number; body: any }>;
  post: (path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  put: (path: string, body: unknown) => Promise<{ status: number; body: any }>;
  patch: (path: string, body: unknown) => Promise<{ status: number; body: any }>;
  delete: (path: string) => Promise<{ status: number; body: any }>;
}

/**
 * The round-trip budget a route is held to: a single read is 1 call; a list page 1 at most 2, sent together;
 * a create 1 transaction and nothing else; a batch of N, 1 read and N writes. `other` (updates, deletes,
 * the public description) has no class budget, only its own recorded calls.
 */
export type RouteClass = 'read' | 'list' | 'create' | 'batch' | 'other';

/** Why a route needs more than its class allows: the price of a rule of the API, named in docs/performance.md. */
export interface Exception {
  reason: string;
}

interface Stop {
  route: string;
  kind: RouteClass;
  request: (ctx: TourState) => { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; body?: unknown };
  /** What the answer gives later stops. */
  keep?: (body: any, ctx: TourState) => void;
  exception?: Exception;
  /** The answer's status when it is not a success: a read of a record the tour cannot make (an event needs the stream consumer). */
  status?: number;
}

type TourState = Record<string, any>;

const SEQUENCE =
  'Integer ids (the spec’s) come from a per-organization sequence item: one UpdateItem reserves the id before the transaction that writes under it';

const CONTACT_SEARCH =
  'A lead is found by its email or phone through the contact’s claim (one consistent GetItem, which names the one lead that can hold it), then that lead (one GetItem): the leads carry no email or phone index, which would cost every lead write two more index copies';

/**
 * Activity ids are taken from blocks each container reserves (ACTIVITY_SEQUENCE in functions/leads/store.ts). The
 * tour's routes share one process, one container: its first activity (the lead's create) pays for the block and the
 * later ones (a note, a status change, an appointment, an inquiry) take their ids with no call. In AWS every route is
 * a function of its own, so each pays one UpdateItem per block in each of its containers.
 */
const ACTIVITY_BLOCK =
  'The LEAD_CREATED activity’s integer id comes from the container’s block of activity ids: the organization’s first activity in a container reserves the block with one UpdateItem before the transaction, and the block’s other ids are taken with no call';

/** One request per route, in an order where each finds what it needs: every route of the API, once. */
const STOPS: Stop[] = [
  { route: 'POST /v1/organization/members', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/organization/members', body: { email: 'kate@northside.com.au', firstName: 'Kate', lastName: 'Nguyen', role: 'ADMIN' } }), keep: (b, s) => ((s.memberId = b.member.id), (s.userId = b.member.user.id)) },
  { route: 'PATCH /v1/organization/members/{memberId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/organization/members/${s.memberId}`, body: { position: 'Director', workingHours: { monday: [{ open: '07:00', close: '17:00' }] } } }) },
  { route: 'GET /v1/organization/members', kind: 'list', request: () => ({ method: 'GET', path: '/v1/organization/members' }) },
  { route: 'GET /v1/organization/members/{memberId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/organization/members/${s.memberId}` }) },
  { route: 'POST /v1/organization/invitations', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/organization/invitations', body: { email: 'liam@example.com', role: 'MANAGER', firstName: 'Liam' } }), keep: (b, s) => (s.invitationId = b.invitation.id) },
  { route: 'GET /v1/organization/invitations', kind: 'list', request: () => ({ method: 'GET', path: '/v1/organization/invitations' }) },
  { route: 'POST /v1/organization/invitations/{invitationId}/accept', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/organization/invitations/${s.invitationId}/accept`, body: { lastName: 'Kelly' } }) },
  { route: 'POST /v1/organization/invitations', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/organization/invitations', body: { email: 'ava@example.com', role: 'MEMBER' } }), keep: (b, s) => (s.cancelledInvitationId = b.invitation.id) },
  { route: 'DELETE /v1/organization/invitations/{invitationId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/organization/invitations/${s.cancelledInvitationId}` }) },
  { route: 'GET /v1/organization', kind: 'read', request: () => ({ method: 'GET', path: '/v1/organization' }) },
  { route: 'PATCH /v1/organization', kind: 'other', request: () => ({ method: 'PATCH', path: '/v1/organization', body: { timezone: 'Australia/Sydney' } }) },
  { route: 'POST /v1/companies', kind: 'create', request: () => ({ method: 'POST', path: '/v1/companies', body: { name: 'Harbourside Strata' } }), keep: (b, s) => (s.companyId = b.company.id) },
  { route: 'GET /v1/companies/{companyId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/companies/${s.companyId}` }) },
  { route: 'PUT /v1/companies/{companyId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/companies/${s.companyId}`, body: { phone: '+61299551299' } }) },
  { route: 'PATCH /v1/companies/{companyId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/companies/${s.companyId}`, body: { phone: '+61299551299' } }) },
  { route: 'GET /v1/companies', kind: 'list', request: () => ({ method: 'GET', path: '/v1/companies' }) },
  { route: 'GET /v1/companies', kind: 'list', request: () => ({ method: 'GET', path: '/v1/companies?q=harbour' }) },
  { route: 'POST /v1/companies/{companyId}/notes', kind: 'create', exception: { reason: SEQUENCE }, request: (s) => ({ method: 'POST', path: `/v1/companies/${s.companyId}/notes`, body: { value: 'Gate code is 4412.' } }), keep: (b, s) => (s.noteId = b.note.id) },
  { route: 'GET /v1/companies/{companyId}/notes/{noteId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/companies/${s.companyId}/notes/${s.noteId}` }) },
  { route: 'PUT /v1/companies/{companyId}/notes/{noteId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/companies/${s.companyId}/notes/${s.noteId}`, body: { value: 'Gate code is 4413.' } }) },
  { route: 'PATCH /v1/companies/{companyId}/notes/{noteId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/companies/${s.companyId}/notes/${s.noteId}`, body: { value: 'Gate code is 4413.' } }) },
  { route: 'GET /v1/companies/{companyId}/notes', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/companies/${s.companyId}/notes` }) },
  { route: 'DELETE /v1/companies/{companyId}/notes/{noteId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/companies/${s.companyId}/notes/${s.noteId}` }) },
  { route: 'POST /v1/leads', kind: 'create', exception: { reason: ACTIVITY_BLOCK }, request: (s) => ({ method: 'POST', path: '/v1/leads', body: { name: 'Tom Baker', email: 'tom@example.com', phone: '+61412555000', companyId: s.companyId } }), keep: (b, s) => (s.leadId = b.lead.id) },
  { route: 'GET /v1/leads/{leadId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/leads/${s.leadId}` }) },
  { route: 'PATCH /v1/leads/{leadId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/leads/${s.leadId}`, body: { status: 'CONTACTED' } }) },
  { route: 'GET /v1/leads', kind: 'list', request: () => ({ method: 'GET', path: '/v1/leads' }) },
  // Searches: by email or a phone with its country code, the contact's claim and then its lead.
  { route: 'GET /v1/leads', kind: 'list', exception: { reason: CONTACT_SEARCH }, request: () => ({ method: 'GET', path: '/v1/leads?q=TOM@example.com' }) },
  { route: 'GET /v1/leads', kind: 'list', exception: { reason: CONTACT_SEARCH }, request: () => ({ method: 'GET', path: '/v1/leads?phone=%2B61%20412%20555%20000' }) },
  {
    route: 'GET /v1/leads',
    kind: 'list',
    exception: { reason: `A national phone number (0412 555 000) is read with the country of the organization’s timezone: one GetItem of it, then as any phone. ${CONTACT_SEARCH}` },
    request: () => ({ method: 'GET', path: '/v1/leads?phone=0412%20555%20000' }),
  },
  {
    route: 'GET /v1/leads',
    kind: 'list',
    exception: { reason: 'A name search reads the name items of its prefix (one Query, which counts each lead once, exactly), then the page’s leads (one BatchGetItem): two calls, the second needing the ids of the first' },
    request: () => ({ method: 'GET', path: '/v1/leads?q=tom&status=CONTACTED' }),
  },
  { route: 'POST /v1/leads/upsert', kind: 'other', request: () => ({ method: 'POST', path: '/v1/leads/upsert', body: { match: 'email', email: 'tom@example.com', suburb: 'Glebe' } }) },
  { route: 'POST /v1/leads/{leadId}/activities', kind: 'create', request: (s) => ({ method: 'POST', path: `/v1/leads/${s.leadId}/activities`, body: { event: 'NOTE', data: 'Gate code is 4412.' } }) },
  { route: 'GET /v1/leads/{leadId}/activities', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/leads/${s.leadId}/activities` }) },
  { route: 'POST /v1/appointments', kind: 'create', exception: { reason: 'Reads the lead, the attendees and the overlapping bookings before one transaction writes the appointment, its bookings and its activity' }, request: (s) => ({ method: 'POST', path: '/v1/appointments', body: { leadId: s.leadId, title: 'Quote visit', startsAt: '2026-12-01T09:00:00+11:00', endsAt: '2026-12-01T10:00:00+11:00', attendees: [{ userId: s.userId }] } }), keep: (b, s) => (s.appointmentId = b.appointment.id) },
  { route: 'GET /v1/appointments/{appointmentId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/appointments/${s.appointmentId}` }) },
  { route: 'PATCH /v1/appointments/{appointmentId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/appointments/${s.appointmentId}`, body: { startsAt: '2026-12-01T13:00:00Z', endsAt: '2026-12-01T14:00:00Z' } }) },
  { route: 'GET /v1/appointments', kind: 'list', request: () => ({ method: 'GET', path: '/v1/appointments' }) },
  { route: 'POST /v1/services', kind: 'create', exception: { reason: 'Two sequences: the service’s id and its linked scenario’s, reserved together before the transaction' }, request: () => ({ method: 'POST', path: '/v1/services', body: { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: ['Which drain is blocked?'], duration: 90, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' } }), keep: (b, s) => ((s.serviceId = b.service.id), (s.scenarioId = b.service.scenarioId ?? b.service.scenario?.id)) },
  { route: 'GET /v1/services/{serviceId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/services/${s.serviceId}` }), keep: (b, s) => (s.scenarioId ??= b.service.scenarioId ?? b.service.scenario?.id) },
  { route: 'GET /v1/scenarios/{scenarioId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/scenarios/${s.scenarioId}` }) },
  { route: 'GET /v1/services', kind: 'list', request: () => ({ method: 'GET', path: '/v1/services?isActive=true' }) },
  // Two round trips: the organization, the service and the members; then the working members' bookings.
  { route: 'GET /v1/availability', kind: 'other', request: (s) => ({ method: 'GET', path: `/v1/availability?serviceId=${s.serviceId}&from=2027-01-04T00:00:00%2B11:00&to=2027-01-05T00:00:00%2B11:00` }) },
  { route: 'POST /v1/availability/holds', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/availability/holds', body: { serviceId: s.serviceId, startsAt: '2027-01-04T09:00:00+11:00', memberId: s.memberId, leadId: s.leadId } }), keep: (b, s) => (s.holdId = b.hold.id) },
  { route: 'POST /v1/appointments', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/appointments', body: { leadId: s.leadId, holdId: s.holdId } }) },
  { route: 'PATCH /v1/services/{serviceId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/services/${s.serviceId}`, body: { pricingType: 'FIXED', price: 180 } }) },
  { route: 'GET /v1/scenarios', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/scenarios?tradeServiceId=${s.serviceId}` }) },
  { route: 'PATCH /v1/scenarios/{scenarioId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/scenarios/${s.scenarioId}`, body: { response: 'We can clear that drain today.' } }) },
  { route: 'GET /v1/organization/services', kind: 'list', request: () => ({ method: 'GET', path: '/v1/organization/services' }) },
  { route: 'POST /v1/products', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/products', body: { name: 'Hot water system install', tradeCategoryId: 1, pricingType: 'RANGE', minPrice: 1200, maxPrice: 3500 } }), keep: (b, s) => (s.productId = b.product.id) },
  { route: 'PUT /v1/products/{productId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/products/${s.productId}`, body: { description: 'Now with free removal.' } }) },
  { route: 'PATCH /v1/products/{productId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/products/${s.productId}`, body: { description: 'Now with free removal.' } }) },
  { route: 'PATCH /v1/products/batch', kind: 'batch', request: (s) => ({ method: 'PATCH', path: '/v1/products/batch', body: { updates: [1, 2, 3].map((i) => ({ id: s.productId, name: `Hot water install ${i}` })) } }) },
  { route: 'GET /v1/products/{productId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/products/${s.productId}` }) },
  { route: 'GET /v1/products', kind: 'list', request: () => ({ method: 'GET', path: '/v1/products?tradeCategoryId=1&isActive=true' }) },
  { route: 'DELETE /v1/products/{productId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/products/${s.productId}` }) },
  { route: 'POST /v1/transfers', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/transfers', body: { label: 'Emergency plumbing', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'Burst pipe.' } }), keep: (b, s) => (s.transferId = b.transfer.id) },
  { route: 'PUT /v1/transfers/{transferId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/transfers/${s.transferId}`, body: { conditions: 'Any gas smell.' } }) },
  { route: 'PATCH /v1/transfers/{transferId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/transfers/${s.transferId}`, body: { conditions: 'Any gas smell.' } }) },
  { route: 'GET /v1/transfers', kind: 'list', request: () => ({ method: 'GET', path: '/v1/transfers?isEnabled=true' }) },
  { route: 'GET /v1/transfers/{transferId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/transfers/${s.transferId}` }) },
  // The rule and the organization's hours, read together; nothing is written.
  { route: 'POST /v1/transfers/{transferId}/resolve', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/transfers/${s.transferId}/resolve`, body: { name: 'Tom Baker', topic: 'a burst pipe', summary: 'Water through the ceiling.' } }) },
  { route: 'DELETE /v1/transfers/{transferId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/transfers/${s.transferId}` }) },
  { route: 'DELETE /v1/services/{serviceId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/services/${s.serviceId}` }) },
  { route: 'POST /v1/policies', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/policies', body: { title: 'Call-out fee', content: 'A $90 call-out fee applies.' } }), keep: (b, s) => (s.policyId = b.policy.id) },
  { route: 'PUT /v1/policies/{policyId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/policies/${s.policyId}`, body: { isActive: false } }) },
  { route: 'PATCH /v1/policies/{policyId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/policies/${s.policyId}`, body: { isActive: false } }) },
  { route: 'GET /v1/policies', kind: 'list', request: () => ({ method: 'GET', path: '/v1/policies' }) },
  { route: 'GET /v1/policies/{policyId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/policies/${s.policyId}` }) },
  { route: 'DELETE /v1/policies/{policyId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/policies/${s.policyId}` }) },
  { route: 'POST /v1/faqs', kind: 'create', exception: { reason: SEQUENCE }, request: () => ({ method: 'POST', path: '/v1/faqs', body: { question: 'Are you licensed?', answer: 'Yes.' } }), keep: (b, s) => (s.faqId = b.faq.id) },
  { route: 'PUT /v1/faqs/{faqId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/faqs/${s.faqId}`, body: { answer: 'Yes, licence 123456C.' } }) },
  { route: 'PATCH /v1/faqs/{faqId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/faqs/${s.faqId}`, body: { answer: 'Yes, licence 123456C.' } }) },
  { route: 'GET /v1/faqs', kind: 'list', request: () => ({ method: 'GET', path: '/v1/faqs' }) },
  { route: 'GET /v1/faqs/{faqId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/faqs/${s.faqId}` }) },
  { route: 'DELETE /v1/faqs/{faqId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/faqs/${s.faqId}` }) },
  { route: 'POST /v1/inquiries', kind: 'create', exception: { reason: 'Finds the lead by the claim of its email or phone (one GetItem), then the lead the claim names (one GetItem), before the transaction that writes the inquiry beside it' }, request: () => ({ method: 'POST', path: '/v1/inquiries', body: { source: 'WEBFORM', lead: { email: 'tom@example.com' }, summary: 'Leaking tap', data: { formName: 'Contact us', submittedAt: '2026-11-20T09:00:00Z', pageUrl: 'https://northside.example.com/contact', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }] } } }), keep: (b, s) => (s.inquiryId = b.inquiry.id) },
  { route: 'GET /v1/inquiries/{inquiryId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/inquiries/${s.inquiryId}` }) },
  { route: 'PATCH /v1/inquiries/{inquiryId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/inquiries/${s.inquiryId}`, body: { isRead: true } }) },
  { route: 'GET /v1/inquiries', kind: 'list', request: () => ({ method: 'GET', path: '/v1/inquiries' }) },
  { route: 'POST /v1/sms', kind: 'create', exception: { reason: 'Recorded before it is sent: the lead and member are read, one transaction records the message QUEUED, and after the provider answers one transaction marks it SENT and moves the status counters' }, request: (s) => ({ method: 'POST', path: '/v1/sms', body: { userId: s.userId, leadId: s.leadId, message: 'On our way' } }), keep: (b, s) => (s.smsId = b.sms.id) },
  { route: 'GET /v1/sms/{smsId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/sms/${s.smsId}` }) },
  { route: 'GET /v1/sms', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/sms?leadId=${s.leadId}` }) },
  // Two round trips (test/callers.test.ts counts them): the organization, the lead by phone and its opt-out; then its inquiries and appointments.
  { route: 'GET /v1/callers/{phone}', kind: 'other', request: () => ({ method: 'GET', path: '/v1/callers/%2B61412555000' }) },
  // The organization and one Query per collection, all sent together (test/receptionist-context.test.ts).
  { route: 'GET /v1/receptionist/context', kind: 'other', request: () => ({ method: 'GET', path: '/v1/receptionist/context' }) },
  { route: 'GET /v1/events', kind: 'list', request: () => ({ method: 'GET', path: '/v1/events' }) },
  // The page and a COUNT of the window, together; the deletes before this stop wrote entries in their transactions.
  { route: 'GET /v1/audit-log', kind: 'list', request: () => ({ method: 'GET', path: '/v1/audit-log?resourceType=faq' }) },
  // The tour runs without the stream consumer, so no event exists: the read of one is its single GetItem, answered 404.
  { route: 'GET /v1/events/{eventId}', kind: 'read', status: 404, request: () => ({ method: 'GET', path: '/v1/events/evt_01JCZ3V7Q8K2M4N6P8R0S2T4V6' }) },
  { route: 'POST /v1/webhooks', kind: 'create', request: () => ({ method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example.com/crm', events: ['lead.created'] } }), keep: (b, s) => (s.webhookId = b.webhook.id) },
  { route: 'GET /v1/webhooks/{webhookId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/webhooks/${s.webhookId}` }) },
  { route: 'PUT /v1/webhooks/{webhookId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/webhooks/${s.webhookId}`, body: { events: ['*'] } }) },
  // A closed local port (npm start and the tests accept loopback receivers): the test event's attempt fails at once.
  { route: 'PATCH /v1/webhooks/{webhookId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/webhooks/${s.webhookId}`, body: { events: ['*'], url: 'http://127.0.0.1:9/crm' } }) },
  { route: 'POST /v1/webhooks/{webhookId}/test', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhookId}/test` }) },
  // No event exists without the stream consumer: the event and the subscription are read together (two GetItems), answered 404.
  { route: 'POST /v1/events/{eventId}/redeliver', kind: 'other', status: 404, request: (s) => ({ method: 'POST', path: `/v1/events/${newId('evt')}/redeliver`, body: { webhookId: s.webhookId } }) },
  { route: 'POST /v1/webhooks/{webhookId}/rotate-secret', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhookId}/rotate-secret` }) },
  { route: 'GET /v1/webhooks/{webhookId}/deliveries', kind: 'list', exception: { reason: 'Deliveries have no counter (TTL deletes them after 30 days, unseen by a counter), so totalCount is a COUNT Query over the window, sent with the page Query and the subscription read: three calls, together. A filter (eventType, status or both) reads its own index partition (gsi1, gsi2, gsi3), so it is the same three calls' }, request: (s) => ({ method: 'GET', path: `/v1/webhooks/${s.webhookId}/deliveries?eventType=webhook.test&status=FAILED` }) },
  { route: 'GET /v1/webhooks', kind: 'list', request: () => ({ method: 'GET', path: '/v1/webhooks' }) },
  { route: 'DELETE /v1/webhooks/{webhookId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/webhooks/${s.webhookId}` }) },
  { route: 'POST /v1/inbound-endpoints', kind: 'create', request: () => ({ method: 'POST', path: '/v1/inbound-endpoints', body: { name: 'Website form', source: 'WEBFORM' } }), keep: (b, s) => ((s.endpointId = b.inboundEndpoint.id), (s.endpointUrl = new URL(b.inboundEndpoint.url))) },
  { route: 'POST /v1/inbound/{inboundEndpointId}', kind: 'create', exception: { reason: 'As POST /v1/inquiries, after reading the endpoint to check its token' }, request: (s) => ({ method: 'POST', path: `${s.endpointUrl.pathname}${s.endpointUrl.search}`, body: { email: 'tom@example.com', message: 'Quote for a new tap' } }) },
  { route: 'GET /v1/inbound-endpoints', kind: 'list', request: () => ({ method: 'GET', path: '/v1/inbound-endpoints' }) },
  { route: 'GET /v1/inbound-endpoints/{inboundEndpointId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/inbound-endpoints/${s.endpointId}` }) },
  { route: 'PATCH /v1/inbound-endpoints/{inboundEndpointId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/inbound-endpoints/${s.endpointId}`, body: { name: 'Website quote form' } }) },
  { route: 'POST /v1/inbound-endpoints/{inboundEndpointId}/rotate', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/inbound-endpoints/${s.endpointId}/rotate` }) },
  { route: 'DELETE /v1/inbound-endpoints/{inboundEndpointId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/inbound-endpoints/${s.endpointId}` }) },
  { route: 'DELETE /v1/leads/{leadId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/leads/${s.leadId}` }) },
  // With its one lead deleted, no lead points at the company any more.
  { route: 'DELETE /v1/companies/{companyId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/companies/${s.companyId}` }) },
  // The member the accepted invitation made (a MANAGER), after its organization's SMS and appointments.
  { route: 'DELETE /v1/organization/members/{memberId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/organization/members/${s.invitationId}` }) },
  // Lists the tools: no table read (a tool call is a request of the API, toured at its own route).
  { route: 'POST /mcp', kind: 'other', request: () => ({ method: 'POST', path: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }) },
  { route: 'GET /openapi', kind: 'other', request: () => ({ method: 'GET', path: '/openapi' }) },
  { route: 'GET /docs', kind: 'other', request: () => ({ method: 'GET', path: '/docs' }) },
];

export interface RouteVisit {
  route: RouteDefinition;
  kind: RouteClass;
  /** The path requested, with its query. */
  path: string;
  status: number;
  calls: DynamoCall[];
  exception?: Exception;
}

const routeKey = (route: RouteDefinition) => `${route.method} ${route.path}`;

/** The routes the tour visits, so a test can tell when a new route is missing from it. */
export const TOURED_ROUTES = STOPS.map((stop) => stop.route);

/**
 * Sends one request per route for a fresh organization and records the DynamoDB calls (and consumed
 * capacity) each made. Meta routes without calls (the reference script) are left out: they touch no table.
 */
export async function tourRoutes(client: TourClient): Promise<RouteVisit[]> {
  const byKey = new Map(routes.map((route) => [routeKey(route), route]));
  const state: TourState = {};
  const visits: RouteVisit[] = [];
  for (const stop of STOPS) {
    const route = byKey.get(stop.route);
    if (!route) throw new Error(`the tour names ${stop.route}, which is not a route`);
    const { method, path, body } = stop.request(state);
    let answer: { status: number; body: any } = { status: 0, body: null };
    const calls = await measureDynamoCalls(async () => {
      answer = await send(client, method, path, body);
    });
    if (stop.status !== undefined ? answer.status !== stop.status : answer.status >= 300) throw new Error(`${stop.route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    stop.keep?.(answer.body, state);
    visits.push({ route, kind: stop.kind, path, status: answer.status, calls, exception: stop.exception });
  }
  return visits;
}

function send(client: TourClient, method: string, path: string, body: unknown) {
  switch (method) {
    case 'GET':
      return client.get(path);
    case 'DELETE':
      return client.delete(path);
    case 'POST':
      return client.post(path, body);
    case 'PUT':
      return client.put(path, body);
    default:
      return client.patch(path, body);
  }
}

/** Whether a visit keeps its class's budget; a batch is given the number of items it sent. */
export function withinBudget(visit: RouteVisit, batchItems = 3): boolean {
  const names = visit.calls.map((call) => call.command);
  switch (visit.kind) {
    case 'read':
      return names.length === 1;
    case 'list':
      return names.length <= 2 && (names.length < 2 || overlapped(visit.calls[0]!, visit.calls[1]!));
    case 'create':
      return names.length === 1 && names[0] === 'TransactWriteItemsCommand';
    case 'batch':
      return names.length === 1 + batchItems && isRead(names[0]!) && names.slice(1).every((name) => !isRead(name));
    default:
      return true;
  }
}

const isRead = (command: string) => /^(Get|BatchGet|Query|TransactGet)/.test(command);
/** Two calls were in flight together: the second was sent before the first answered. */
const overlapped = (a: DynamoCall, b: DynamoCall) => b.sentAt < a.answeredAt && a.sentAt < b.answeredAt;
