import type * as v from 'valibot';
import { ErrorEnvelopeSchema } from '../../shared/schema';
import * as appointments from '../appointments/schema';
import * as companies from '../companies/schema';
import * as events from '../events/schema';
import { faqs } from '../faqs/collection';
import * as inquiries from '../inquiries/schema';
import * as leads from '../leads/schema';
import * as members from '../organization/member-schema';
import * as organization from '../organization/schema';
import { policies } from '../policies/collection';
import * as products from '../products/schema';
import * as scenarios from '../services/scenario-schema';
import * as services from '../services/schema';
import * as transfers from '../transfers/schema';
import * as webhooks from '../webhooks/schema';

/**
 * The schemas the document names under components.schemas: wherever a route's schema contains one
 * of these objects, the document refers to it by name instead of repeating it. One line each.
 */
export const componentSchemas: Record<string, v.GenericSchema> = {
  ErrorEnvelope: ErrorEnvelopeSchema,
  Lead: leads.Lead,
  LeadActivity: leads.LeadActivity,
  InquiryListItem: inquiries.InquiryListItem,
  InquiryLead: inquiries.InquiryLead,
  Inquiry: inquiries.Inquiry,
  CallData: inquiries.CallData,
  TranscriptEntry: inquiries.TranscriptEntry,
  EmailData: inquiries.EmailData,
  ChatbotData: inquiries.ChatbotData,
  ChatMessage: inquiries.ChatMessage,
  SmsData: inquiries.SmsData,
  SmsMessage: inquiries.SmsMessage,
  WebformData: inquiries.WebformData,
  WebformField: inquiries.WebformField,
  Appointment: appointments.Appointment,
  Company: companies.Company,
  CompanyNote: companies.CompanyNote,
  Member: members.Member,
  MemberUser: members.MemberUser,
  Invitation: members.Invitation,
  Organization: organization.Organization,
  Service: services.Service,
  ServiceCategory: services.ServiceCategory,
  CategoryService: services.CategoryService,
  Scenario: scenarios.Scenario,
  ScenarioSummary: scenarios.ScenarioSummary,
  ScenarioQuestion: scenarios.ScenarioQuestion,
  ScenarioOutcome: scenarios.ScenarioOutcome,
  Product: products.Product,
  ProductBatchResult: products.BatchResult,
  Transfer: transfers.Transfer,
  Policy: policies.schemas.Record,
  Faq: faqs.schemas.Record,
  Event: events.Event,
  Webhook: webhooks.Webhook,
  WebhookWithSecret: webhooks.WebhookWithSecret,
  WebhookDelivery: webhooks.WebhookDelivery,
};
