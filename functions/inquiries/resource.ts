import { defineResource, namedComponents } from '#shared/resource';
import { inquiryKeys, inquiryKeySamples } from './entity';
import * as examples from './examples';
import { inquiryRoutes } from './routes';
import { CallData, ChatbotData, ChatMessage, EmailData, Inquiry, InquiryLead, InquiryListItem, SmsData, SmsMessage, TranscriptEntry, WebformData, WebformField } from './schema';
import { changes } from './changes';

export const inquiries = defineResource({
  name: 'inquiries',
  tags: { Inquiries: 'Each contact from a lead — a call, an email, a chatbot conversation, an SMS thread or a web form — with its source record.' },
  routes: inquiryRoutes,
  components: namedComponents({ InquiryListItem, InquiryLead, Inquiry, CallData, TranscriptEntry, EmailData, ChatbotData, ChatMessage, SmsData, SmsMessage, WebformData, WebformField }, examples),
  ...changes,
  keys: [{ builders: inquiryKeys, samples: inquiryKeySamples }],
});
