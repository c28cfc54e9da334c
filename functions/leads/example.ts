/**
 * The lead's example in the OpenAPI document (see ./examples.ts), kept apart from the others because the record answers
 * its fields in this order (`leadEntity`): the entity reads it, so the stream consumer does, which reads no examples module.
 */
export const LEAD_ID = 'lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6';

export const lead = {
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
