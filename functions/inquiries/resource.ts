import { defineResource } from '#shared/resource';
import { inquiryKeys, inquiryKeySamples } from './entity';
import { inquiry, inquiryLead, inquiryListItem, smsData, smsMessage } from './examples';
import { inquiryRoutes } from './routes';
import * as schemas from './schema';
import { changes } from './changes';

export const inquiries = defineResource({
  name: 'inquiries',
  tags: { Inquiries: 'Each contact from a lead — a call, an email, a chatbot conversation, an SMS thread or a web form — with its source record.' },
  routes: inquiryRoutes,
  components: {
    InquiryListItem: { schema: schemas.InquiryListItem, example: inquiryListItem },
    InquiryLead: { schema: schemas.InquiryLead, example: inquiryLead },
    Inquiry: { schema: schemas.Inquiry, example: inquiry },
    CallData: { schema: schemas.CallData, example: undefined },
    TranscriptEntry: { schema: schemas.TranscriptEntry, example: undefined },
    EmailData: { schema: schemas.EmailData, example: undefined },
    ChatbotData: { schema: schemas.ChatbotData, example: undefined },
    ChatMessage: { schema: schemas.ChatMessage, example: undefined },
    SmsData: { schema: schemas.SmsData, example: smsData },
    SmsMessage: { schema: schemas.SmsMessage, example: smsMessage },
    WebformData: { schema: schemas.WebformData, example: undefined },
    WebformField: { schema: schemas.WebformField, example: undefined },
  },
  ...changes,
  keys: [{ builders: inquiryKeys, samples: inquiryKeySamples }],
});
