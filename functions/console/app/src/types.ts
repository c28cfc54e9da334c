// The shapes of the API's answers the console reads, taken from the typed client's types (examples/client/schema.d.ts,
// which openapi-typescript writes from docs/openapi.json): an entity's fields are written once, in the API's schemas.
// The import is of types alone, so the bundle holds none of it; the lists below are values, held to those types.
import type { components, paths } from '../../../../examples/client/schema';

type Schemas = components['schemas'];
/** The JSON a path's method answers with its success status. */
type Answer<P extends keyof paths, M extends 'get' | 'post', S extends number> = paths[P][M] extends {
  responses: { [status in S]: { content: { 'application/json': infer A } } };
}
  ? A
  : never;
/** Compiles only when nothing is missing: `Missing<[Exclude<Union, Listed>]>` fails when a list lacks a value. */
type Missing<None extends [never]> = None;

export type Lead = Schemas['Lead'];
export type LeadStatus = Lead['status'];
export const LEAD_STATUSES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'] as const satisfies readonly LeadStatus[];
export type LeadActivity = Schemas['LeadActivity'];

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
export type Passkey = MeSession['passkeys'][number];
/** The signed-in member's session: a sign-in's, or GET /v1/me's, which adds its passkeys. */
export type Session = Answer<'/v1/sign-in/sessions', 'post', 201>['session'] & Partial<Pick<MeSession, 'passkeys'>>;

/** Every list answers a page the same way; `key` is the list's own name (`leads`, `inquiries`…). */
export type Page<K extends string, T> = { [key in K]: T[] } & Pick<Answer<'/v1/leads', 'get', 200>, 'totalCount' | 'nextCursor'>;

export type Sms = Schemas['Sms'];
export type Appointment = Schemas['Appointment'];
/** A slot held for a caller while they confirm (GET /v1/availability/holds lists the live ones). */
export type Hold = Schemas['Hold'];

export type Automation = Schemas['Automation'];
export type AutomationStep = Automation['steps'][number];
export type StepType = AutomationStep['type'];
export type AutomationTemplate = Answer<'/v1/automation-templates', 'get', 200>['templates'][number];
export type AutomationRun = Schemas['AutomationRun'];
export type RunStatus = AutomationRun['status'];
export type RunStep = AutomationRun['steps'][number];

export type Organization = Schemas['Organization'];
export type WeeklyHours = NonNullable<Organization['businessHours']>;
export type Weekday = keyof WeeklyHours;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const satisfies readonly Weekday[];

export type Service = Schemas['Service'];
export type Product = Schemas['Product'];

export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type OAuthGrant = Schemas['OAuthGrant'];
/** An API key as listed, never with its token. */
export type ApiKeySummary = Answer<'/v1/api-keys', 'get', 200>['keys'][number];

export type ReportSummary = Schemas['ReportSummary'];
export type ReportFunnel = Schemas['ReportFunnel'];
export type ReportTimeseries = Schemas['ReportTimeseries'];
export type ReportRebuild = Schemas['ReportRebuild'];

// Each list of values above is complete: these fail to compile when the document names a value the list lacks.
type _ListsAreComplete = [
  Missing<[Exclude<LeadStatus, (typeof LEAD_STATUSES)[number]>]>,
  Missing<[Exclude<InquirySource, (typeof INQUIRY_SOURCES)[number]>]>,
  Missing<[Exclude<CallOutcome, (typeof CALL_OUTCOMES)[number]>]>,
  Missing<[Exclude<Role, (typeof ROLES)[number]>]>,
  Missing<[Exclude<Weekday, (typeof WEEKDAYS)[number]>]>,
];
