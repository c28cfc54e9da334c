/**
 * One example per named component, drawn from the demo organization (infra/demo) with fixed ids and
 * dates so the document does not change from run to run. The OpenAPI tests validate each against
 * its schema in the document, so an example cannot drift from the code.
 */
const LEAD_ID = 'lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6';
const INQUIRY_ID = 'inquiry_01JCZ41B2C3D4E5F6G7H8J9K0M';
const THREAD_ID = 'thread_01JCZ41A9B8C7D6E5F4G3H2J1K';
const USER_ID = 'user_01JBQ0ZP5W9X7Y3Z1A2B4C6D8E';
const COMPANY_ID = 'company_01JA4N8S2T6V0W4X8Y2Z6A0B4C';
const EVENT_ID = 'evt_01JCZ59Q4R5S6T7V8W9X0Y1Z2A';

const webhook = {
  id: 'webhook_01JCZ50A1B2C3D4E5F6G7H8J9K',
  url: 'https://hooks.example.com/sales-pipeline',
  events: ['lead.created', 'inquiry.created', 'sms.received'],
  description: 'CRM sync',
  isEnabled: true,
  disabledReason: null,
  createdAt: '2026-10-30T02:11:45.120Z',
  updatedAt: '2026-10-30T02:11:45.120Z',
};

const lead = {
  id: LEAD_ID,
  firstName: 'Olivia',
  lastName: 'Nguyen',
  email: 'olivia.nguyen@example.com.au',
  phone: '+61412345001',
  suburb: 'Parramatta',
  businessName: null,
  companyId: null,
  socials: {},
  status: 'NEW',
  createdAt: '2026-11-20T04:12:09.512Z',
  read: false,
  lastInquiryId: INQUIRY_ID,
  lastInquiryDate: '2026-11-20T04:15:42.118Z',
  unreadEmails: 0,
  unreadCalls: 0,
  unreadChatbotThreads: 0,
  unreadSMS: 1,
  unreadWebformSubmissions: 0,
  hasFlaggedInquiry: false,
  smsOptedOut: false,
};

const smsMessage = {
  id: 'sms_01JCZ41C5D6E7F8G9H0J1K2M3N',
  direction: 'OUTBOUND',
  status: 'SENT',
  body: 'Hi Olivia, thanks for getting in touch. Tom can look at the blocked drain tomorrow between 8 and 10am. Does that suit?',
  userId: USER_ID,
  createdAt: '2026-11-20T04:15:42.118Z',
};

const smsData = { id: THREAD_ID, leadPhone: '+61412345001', messages: [smsMessage] };

const inquiryListItem = {
  id: INQUIRY_ID,
  source: 'SMS',
  sourceId: THREAD_ID,
  tag: 'BOOKING',
  summary: 'Booked a blocked drain visit for tomorrow morning.',
  isFirstInquiry: true,
  isRead: false,
  leadId: LEAD_ID,
  createdAt: '2026-11-20T04:15:42.118Z',
};
/** A single read has the list fields but sourceId, and its populated source record. */
const { sourceId: _sourceId, ...inquiryFields } = inquiryListItem;

const scenarioQuestion = {
  question: 'Which drain is blocked (sink, toilet, shower or outside)?',
  answerOptions: [],
};

const scenarioOutcome = { type: 'continueCall', property1: null, property2: null };

const product = {
  id: 3,
  name: 'Hot water system install',
  description: 'Supply and install of a 250 L electric storage hot water system, old unit removed.',
  response: 'A standard electric hot water install starts from $1,650 including the unit.',
  tradeCategoryId: 1,
  pricingType: 'RANGE',
  price: 1650,
  maxPrice: 2400,
  isDisclosePrice: true,
  faqs: [{ question: 'How long does an install take?', answer: 'Usually three to four hours.' }],
  isActive: true,
  createdAt: '2026-10-02T23:41:05.220Z',
  updatedAt: '2026-11-18T01:02:33.874Z',
};

const categoryService = {
  id: 1,
  name: 'Blocked drain clearing',
  description: 'Clearing blocked sinks, toilets and stormwater drains with an electric eel or high-pressure jetter.',
  duration: 90,
  followUpQuestions: ['Which drain is blocked (sink, toilet, shower or outside)?', 'Is water overflowing right now?'],
  tradeCategoryId: 1,
  createdAt: '2026-09-14T22:10:41.006Z',
  isActive: true,
};

export const componentExamples: Record<string, unknown> = {
  ErrorEnvelope: { success: false, message: 'Lead not found', error: { status: 404, message: 'Lead not found', code: 'NOT_FOUND' } },
  Lead: lead,
  LeadActivity: {
    id: 1,
    event: 'LEAD_CREATED',
    data: 'Lead Olivia Nguyen created',
    referenceId: null,
    userId: null,
    leadId: LEAD_ID,
    createdAt: '2026-11-20T04:12:09.512Z',
  },
  InquiryListItem: inquiryListItem,
  InquiryLead: { id: LEAD_ID, firstName: 'Olivia', lastName: 'Nguyen', email: 'olivia.nguyen@example.com.au', phone: '+61412345001', businessName: null },
  Inquiry: { ...inquiryFields, data: smsData },
  SmsData: smsData,
  SmsMessage: smsMessage,
  Appointment: {
    id: 'appointment_01JD1H3Q9V7C5X3Z1B9N7M5K3J',
    leadId: LEAD_ID,
    title: 'Blocked drain inspection',
    startsAt: '2026-11-21T22:00:00.000Z',
    endsAt: '2026-11-21T23:00:00.000Z',
    timezone: 'Australia/Sydney',
    location: '14 Church St, Parramatta NSW 2150',
    attendees: [{ userId: USER_ID }],
    notes: 'Side gate is unlocked; dog is friendly.',
    status: 'BOOKED',
    createdAt: '2026-11-20T04:20:00.000Z',
    updatedAt: '2026-11-20T04:20:00.000Z',
  },
  Company: {
    id: COMPANY_ID,
    name: 'Harbourside Strata Management',
    website: 'https://harboursidestrata.com.au',
    email: 'maintenance@harboursidestrata.com.au',
    phone: '+61299551200',
    address: '1/92 Military Rd, Neutral Bay NSW 2089',
    createdAt: '2026-05-26T01:20:00.000Z',
    updatedAt: '2026-05-26T01:20:00.000Z',
  },
  CompanyNote: {
    id: 4,
    value: 'Asked for a quote to replace the hot water plant at Kurraba Point before winter.',
    companyId: COMPANY_ID,
    userId: USER_ID,
    createdAt: '2026-11-14T03:20:00.000Z',
    updatedAt: '2026-11-14T03:20:00.000Z',
  },
  Member: {
    id: 2,
    role: 'MANAGER',
    firstName: 'Daniel',
    lastName: 'Russo',
    position: 'Operations Manager',
    responsibility: 'Scheduling crews, job follow-ups and strata clients',
    avatarImg: 'https://images.harbourcitytrades.com.au/team/daniel-russo.jpg',
    isDisabled: false,
    user: { id: USER_ID, email: 'daniel@harbourcitytrades.com.au' },
  },
  MemberUser: { id: USER_ID, email: 'daniel@harbourcitytrades.com.au' },
  Organization: {
    id: 'org_01JA0000000000000000000000',
    name: 'Harbour City Trades',
    timezone: 'Australia/Sydney',
    smsSenderId: 'HarbourCity',
    createdAt: '2025-10-18T22:00:00.000Z',
    counts: { leads: 8, members: 4, services: 5 },
  },
  Invitation: { id: 5, email: 'liam.kelly@harbourcitytrades.com.au', role: 'MEMBER', firstName: 'Liam', lastName: 'Kelly', status: 'PENDING', createdAt: '2026-11-20T03:00:00.000Z' },
  Service: {
    ...categoryService,
    durationUnit: 'MINUTES',
    pricingMode: 'CALL_OUT',
    fixedPrice: null,
    hourlyRate: 145,
    callOutFee: 99,
    minPrice: null,
    maxPrice: null,
    plusGST: true,
    plusMaterials: false,
    isCustomPriceResponseActive: false,
    customPriceResponse: null,
    isDisclosePrice: true,
    teamAssignmentMethod: 'ROUND_ROBIN',
    scenario: { id: 1, response: '', questions: [scenarioQuestion], outcome: scenarioOutcome },
    updatedAt: '2026-09-14T22:10:41.006Z',
  },
  ServiceCategory: { id: 1, name: 'Plumbing', type: 'SERVICE', services: [categoryService] },
  CategoryService: categoryService,
  Scenario: {
    id: 1,
    name: 'Blocked drain clearing',
    prompt: '',
    response: '',
    isActive: true,
    questions: [scenarioQuestion],
    outcome: scenarioOutcome,
    tradeServiceId: 1,
    createdAt: '2026-09-14T22:10:41.006Z',
    updatedAt: '2026-09-14T22:10:41.006Z',
  },
  ScenarioQuestion: scenarioQuestion,
  ScenarioOutcome: scenarioOutcome,
  Product: product,
  Transfer: {
    id: 1,
    label: 'Emergency plumbing',
    name: 'Emergency plumbing',
    method: 'WARM',
    destinationType: 'DEPARTMENT',
    destination: 'On-call plumber',
    conditions: 'The caller reports a burst pipe, flooding or no hot water at a rental property.',
    summaryFormat: 'Caller {name} is calling about {topic}. Summary: {summary}',
    settings: { ignore_business_hours: true },
    isEnabled: true,
    scenarioId: null,
    createdAt: '2026-08-30T00:05:12.431Z',
    updatedAt: '2026-10-11T06:44:50.090Z',
  },
  Policy: {
    id: 1,
    title: 'Call-out fee',
    content: 'A $99 call-out fee applies to every visit and covers the first 30 minutes on site.',
    isActive: true,
  },
  Faq: { id: 1, question: 'Are you licensed?', answer: 'Yes: NSW plumbing licence 123456C and electrical licence 654321C.', isActive: true },
  Event: { id: EVENT_ID, type: 'lead.created', occurredAt: '2026-11-02T21:14:09.000Z', organizationId: 'org_01JA0000000000000000000000', data: lead },
  Webhook: webhook,
  WebhookWithSecret: { ...webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Qh8zFZZ0Wo=' },
  WebhookDelivery: {
    id: 'delivery_01JCZ5A1B2C3D4E5F6G7H8J9K0',
    eventId: EVENT_ID,
    eventType: 'lead.created',
    attempt: 2,
    status: 'FAILED',
    statusCode: 503,
    error: null,
    durationMs: 184,
    attemptedAt: '2026-11-02T21:14:40.512Z',
    nextAttemptAt: '2026-11-02T21:15:41.204Z',
  },
};
