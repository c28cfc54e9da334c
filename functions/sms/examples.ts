import { LEAD_ID } from '../leads/examples';
import { USER_ID } from '../organization/examples';

/** Examples of the SMS resource's components in the OpenAPI document (see functions/leads/examples.ts). */
export const sms = {
  id: 'message_01JCZ41C5D6E7F8G9H0J1K2M3N',
  direction: 'OUTBOUND',
  status: 'SENT',
  body: 'Hi Olivia, thanks for getting in touch. Tom can look at the blocked drain tomorrow between 8 and 10am. Does that suit?',
  leadId: LEAD_ID,
  userId: USER_ID,
  messageThreadId: 'thread_01JCZ41A9B8C7D6E5F4G3H2J1K',
  inquiryId: 'inquiry_01JCZ41B2C3D4E5F6G7H8J9K0M',
  createdAt: '2026-11-20T04:15:42.118Z',
  updatedAt: '2026-11-20T04:15:44.902Z',
};

/** A customer's conversation as GET /v1/conversations lists it: Olivia's reply, unread, on a lead assigned to member 2. */
export const conversation = {
  leadId: LEAD_ID,
  lastMessage: { id: 'message_01JCZ4A7K2M3N4P5Q6R7S8T9V0', direction: 'INBOUND', body: 'Yes, 8 works. The side gate will be open.', at: '2026-11-20T04:21:07.530Z', memberId: null, inquiryId: 'inquiry_01JCZ41B2C3D4E5F6G7H8J9K0M' },
  unreadCount: 1,
  assignedMemberId: 2,
  status: 'OPEN',
};
