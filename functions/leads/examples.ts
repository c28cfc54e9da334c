/**
 * Examples of the lead's components in the OpenAPI document, drawn from the demo organization with fixed ids and
 * dates so the document does not change from run to run; the OpenAPI tests validate each against its schema.
 */
export const LEAD_ID = 'lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6';

/** The lead as a list of other records shows it (`expand=lead`). */
export const leadSummary = { id: LEAD_ID, firstName: 'Olivia', lastName: 'Nguyen', email: 'olivia.nguyen@example.com.au', phone: '+61412345001', businessName: null };

export const lead = {
  id: LEAD_ID,
  firstName: 'Olivia',
  lastName: 'Nguyen',
  email: 'olivia.nguyen@example.com.au',
  phone: '+61412345001',
  suburb: 'Parramatta',
  businessName: null,
  companyId: null,
  assignedMemberId: null,
  socials: {},
  status: 'NEW',
  value: 4500,
  lostReason: null,
  wonAt: null,
  lostAt: null,
  statusChangedAt: '2026-11-20T04:12:09.512Z',
  createdAt: '2026-11-20T04:12:09.512Z',
  updatedAt: '2026-11-20T04:15:42.118Z',
  read: false,
  lastInquiryId: 'inquiry_01JCZ41B2C3D4E5F6G7H8J9K0M',
  lastInquiryDate: '2026-11-20T04:15:42.118Z',
  unreadEmails: 0,
  unreadCalls: 0,
  unreadChatbotThreads: 0,
  unreadSMS: 1,
  unreadWebformSubmissions: 0,
  hasFlaggedInquiry: false,
  smsOptedOut: false,
};

export const leadActivity = {
  id: 1,
  event: 'LEAD_CREATED',
  data: 'Lead Olivia Nguyen created',
  referenceId: null,
  userId: null,
  leadId: LEAD_ID,
  createdAt: '2026-11-20T04:12:09.512Z',
  updatedAt: '2026-11-20T04:12:09.512Z',
};
