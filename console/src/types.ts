// The shapes of the API's answers the console reads, taken from the API's types (./api-schema.d.ts, which the root's
// npm run generate writes from docs/openapi.json): an entity's fields are written once, in the API's schemas.
// The import is of types alone, so the bundle holds none of it; the lists below are values, held to those types.
import type { components, paths } from './api-schema';

type Schemas = components['schemas'];
/** The JSON a path's method answers with its success status. */
type Answer<P extends keyof paths, M extends 'get' | 'post', S extends number> = paths[P][M] extends {
  responses: { [status in S]: { content: { 'application/json': infer A } } };
}
  ? A
  : never;
/** The JSON a path's method takes. */
type Body<P extends keyof paths, M extends 'post' | 'patch'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** Compiles only when nothing is missing: `Missing<[Exclude<Union, Listed>]>` fails when a list lacks a value. */
type Missing<None extends [never]> = None;

export type Lead = Schemas['Lead'];
/** PATCH /v1/leads/{leadId}: the fields to change. */
export type LeadChanges = Body<'/v1/leads/{leadId}', 'patch'>;
export type LeadStatus = Lead['status'];
export const LEAD_STATUSES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'] as const satisfies readonly LeadStatus[];

export type InquiryListItem = Schemas['InquiryListItem'];
export type InquirySource = InquiryListItem['source'];
export const INQUIRY_SOURCES = ['CALL', 'EMAIL', 'CHATBOT', 'SMS', 'WEBFORM'] as const satisfies readonly InquirySource[];
export type CallOutcome = NonNullable<InquiryListItem['callOutcome']>;
export const CALL_OUTCOMES = ['MISSED', 'TRANSFERRED', 'ANSWERED'] as const satisfies readonly CallOutcome[];
/** GET /v1/inquiries/{id}: the inquiry with its source's record (an SMS one's `data.id` is its thread). */
export type Inquiry = Schemas['Inquiry'];
export type CallData = Schemas['CallData'];
export type EmailData = Schemas['EmailData'];
export type ChatbotData = Schemas['ChatbotData'];
export type WebformData = Schemas['WebformData'];

export type Member = Schemas['Member'];
export type Role = Member['role'];
export const ROLES = ['ADMIN', 'MANAGER', 'MEMBER'] as const satisfies readonly Role[];
export type Invitation = Schemas['Invitation'];

type MeSession = Answer<'/v1/me', 'get', 200>['session'];
/** The signed-in member's session: a sign-in's, or GET /v1/me's, which adds its passkeys. */
export type Session = Answer<'/v1/sign-in/sessions', 'post', 201>['session'] & Partial<Pick<MeSession, 'passkeys'>>;

export type Sms = Schemas['Sms'];
/** GET /v1/conversations: one customer's latest text, with its lead's summary when asked for (expand=lead). */
export type Conversation = Schemas['Conversation'];
export type Appointment = Schemas['Appointment'];
export type AppointmentChanges = Body<'/v1/appointments/{appointmentId}', 'patch'>;
/** A slot the receptionist holds for a caller while the call goes on. */
export type Hold = Schemas['Hold'];

export type Automation = Schemas['Automation'];
/** What starts an automation's runs (`call.missed`, `lead.created`…). */
export type TriggerEvent = Automation['trigger']['event'];
export type AutomationStep = Automation['steps'][number];
export type StepType = AutomationStep['type'];
export type AutomationTemplate = Answer<'/v1/automation-templates', 'get', 200>['templates'][number];
export type AutomationRun = Schemas['AutomationRun'];
/** A run as a list shows it, with its lead (`expand=lead`). */
export type AutomationRunListItem = Schemas['AutomationRunListItem'];
export type RunStatus = AutomationRun['status'];
export type RunStep = AutomationRun['steps'][number];
/** Why a run stopped (`lead.replied`, `cancelled`…); an automation's `stopWhen` names some of them. */
export type StoppedReason = NonNullable<AutomationRun['stoppedReason']>;

export type Organization = Schemas['Organization'];
export type WeeklyHours = NonNullable<Organization['businessHours']>;
export type Weekday = keyof WeeklyHours;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const satisfies readonly Weekday[];

export type Service = Schemas['Service'];
export type Product = Schemas['Product'];
type Editable = 'name' | 'description' | 'isActive' | 'price';
/** The fields of a service or product the console edits, as PATCH /v1/services/{serviceId} and …/products/{productId} both take them. */
export type OfferChanges = Pick<Body<'/v1/services/{serviceId}', 'patch'>, Editable> & Pick<Body<'/v1/products/{productId}', 'patch'>, Editable>;

export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type OAuthGrant = Schemas['OAuthGrant'];
/** An API key as listed, never with its token. */
export type ApiKeySummary = Answer<'/v1/api-keys', 'get', 200>['keys'][number];

export type ReportSummary = Schemas['ReportSummary'];
export type ReportTimeseries = Schemas['ReportTimeseries'];
export type ReportRebuild = Schemas['ReportRebuild'];
/** A bulk enrolment of a status's leads in an automation, run by the API. */
export type AutomationEnrolment = Schemas['AutomationEnrolment'];

// Each list of values above is complete: these fail to compile when the document names a value the list lacks.
type _ListsAreComplete = [
  Missing<[Exclude<LeadStatus, (typeof LEAD_STATUSES)[number]>]>,
  Missing<[Exclude<InquirySource, (typeof INQUIRY_SOURCES)[number]>]>,
  Missing<[Exclude<CallOutcome, (typeof CALL_OUTCOMES)[number]>]>,
  Missing<[Exclude<Role, (typeof ROLES)[number]>]>,
  Missing<[Exclude<Weekday, (typeof WEEKDAYS)[number]>]>,
];

/** A browser of the member's that gets push notices (GET /v1/me/push-subscriptions). */
export type PushSubscriptionView = Answer<'/v1/me/push-subscriptions', 'get', 200>['subscriptions'][number];
export type NoticeKind = PushSubscriptionView['notify'][number];
/** Each kind of notice, in the words the settings use: a new kind of the API's stops the console's typecheck here. */
export const NOTICE_LABELS: Record<NoticeKind, string> = {
  MISSED_CALL: 'A missed call',
  CUSTOMER_REPLY: 'A text from a customer',
  WEBHOOK_FAILING: 'A webhook turned off for failing',
};
