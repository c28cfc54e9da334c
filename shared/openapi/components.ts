import type * as v from 'valibot';
import { ErrorEnvelopeSchema } from '../schemas/common';
import * as appointments from '../schemas/appointments';
import * as companies from '../schemas/companies';
import * as events from '../schemas/events';
import * as faqs from '../schemas/faqs';
import * as inquiries from '../schemas/inquiries';
import * as leads from '../schemas/leads';
import * as members from '../schemas/members';
import * as organization from '../schemas/organization';
import * as policies from '../schemas/policies';
import * as products from '../schemas/products';
import * as scenarios from '../schemas/scenarios';
import * as services from '../schemas/services';
import * as transfers from '../schemas/transfers';
import * as webhooks from '../schemas/webhooks';

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
  Policy: policies.Policy,
  Faq: faqs.Faq,
  Event: events.Event,
  Webhook: webhooks.Webhook,
  WebhookWithSecret: webhooks.WebhookWithSecret,
  WebhookDelivery: webhooks.WebhookDelivery,
};
