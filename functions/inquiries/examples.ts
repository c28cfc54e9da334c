import { LEAD_ID } from '../leads/examples';
import { USER_ID } from '../organization/examples';

/** Examples of the inquiry's components in the OpenAPI document (see functions/leads/examples.ts). */
const INQUIRY_ID = 'inquiry_01JCZ41B2C3D4E5F6G7H8J9K0M';
const THREAD_ID = 'thread_01JCZ41A9B8C7D6E5F4G3H2J1K';

export const smsMessage = {
  id: 'sms_01JCZ41C5D6E7F8G9H0J1K2M3N',
  direction: 'OUTBOUND',
  status: 'SENT',
  body: 'Hi Olivia, thanks for getting in touch. Tom can look at the blocked drain tomorrow between 8 and 10am. Does that suit?',
  userId: USER_ID,
  createdAt: '2026-11-20T04:15:42.118Z',
};

export const smsData = { id: THREAD_ID, leadPhone: '+61412345001', messages: [smsMessage] };

export const inquiryListItem = {
  id: INQUIRY_ID,
  source: 'SMS',
  sourceId: THREAD_ID,
  tag: 'BOOKING',
  summary: 'Booked a blocked drain visit for tomorrow morning.',
  callOutcome: null,
  isFirstInquiry: true,
  isRead: false,
  leadId: LEAD_ID,
  createdAt: '2026-11-20T04:15:42.118Z',
  updatedAt: '2026-11-20T04:15:42.118Z',
};

/** A single read has the list fields but sourceId, and its populated source record. */
const { sourceId: _sourceId, ...inquiryFields } = inquiryListItem;
export const inquiry = { ...inquiryFields, data: smsData };

