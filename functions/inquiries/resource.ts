import { defineResource, namedComponents } from '#shared/resource';
import { inquiryKeys, inquiryKeySamples } from './entity';
import * as examples from './examples';
import { inquiryRoutes } from './routes';
import { CallData, ChatbotData, ChatMessage, EmailData, Inquiry, InquiryListItem, SmsData, SmsMessage, TranscriptEntry, WebformData, WebformField } from './schema';
import { changes } from './changes';

export const inquiries = defineResource({
  name: 'inquiries',
  tags: { Inquiries: 'Each contact from a lead — a call, an email, a chatbot conversation, an SMS thread or a web form — with its source record.' },
  // Members work inquiries: record one, mark it read or unread.
  sessionRoles: { write: 'MEMBER' },
  routes: inquiryRoutes,
  components: namedComponents({ InquiryListItem, Inquiry, CallData, TranscriptEntry, EmailData, ChatbotData, ChatMessage, SmsData, SmsMessage, WebformData, WebformField }, examples),
  ...changes,
  keys: [{ builders: inquiryKeys, samples: inquiryKeySamples }],
  zapier: {
    triggers: [
      { key: 'new_inquiry', noun: 'Inquiry', label: 'New Inquiry', description: 'Triggers when an inquiry arrives: a call, an email, a chat, an SMS thread or a web form.', eventType: 'inquiry.created' },
      { key: 'missed_call', noun: 'Call', label: 'Missed Call', description: 'Triggers when a call nobody served is logged (its outcome MISSED).', eventType: 'inquiry.created', filter: { where: { source: 'CALL', callOutcome: 'MISSED' } } },
    ],
    creates: [{ key: 'log_call', noun: 'Call', label: 'Log a Call', description: "Records a call as a CALL inquiry, finding or creating the lead by the caller's phone.", tool: 'log_call' }],
  },
});
