import { defineResource, lifecycleEvents } from '../../shared/resource';
import { fromInquiryItem, inquiryAudit, inquiryKeys, inquiryKeySamples } from './entity';
import { inquiry, inquiryLead, inquiryListItem, smsData, smsMessage } from './examples';
import { inquiryRoutes } from './routes';
import * as schemas from './schema';

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
  events: [
    lifecycleEvents({
      entity: 'INQUIRY',
      // The external id is the integrator's own key, for retries; events carry the inquiry as lists show it.
      toData: (item) => {
        const { externalInquiryId: _external, ...summary } = fromInquiryItem(item);
        return summary;
      },
      created: 'inquiry.created',
    }),
  ],
  audited: [inquiryAudit],
  keys: [{ builders: inquiryKeys, samples: inquiryKeySamples }],
});
