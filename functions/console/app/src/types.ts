// The shapes of the API's answers the console reads, as docs/openapi.json (and the console contract) give them: only
// the fields a screen shows or sends back. The console bundles no schema library, so these are types alone.

export const LEAD_STATUSES = ['NEW', 'CONTACTED', 'QUALIFIED', 'QUOTED', 'WON', 'LOST'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const INQUIRY_SOURCES = ['CALL', 'EMAIL', 'CHATBOT', 'SMS', 'WEBFORM'] as const;
export type InquirySource = (typeof INQUIRY_SOURCES)[number];

export type Role = 'ADMIN' | 'MANAGER' | 'MEMBER';
export const ROLES: readonly Role[] = ['ADMIN', 'MANAGER', 'MEMBER'];

/** Every list answers a page the same way; `key` is the list's own name (`leads`, `inquiries`…). */
export type Page<K extends string, T> = { [key in K]: T[] } & { totalCount: number; nextCursor: string | null };

export interface Member {
  id: number;
  role: Role;
  firstName: string;
  lastName: string;
  phone: string | null;
  isDisabled: boolean;
  user: { id: string; email: string };
}

export interface Invitation {
  id: number;
  email: string;
  role: Role;
  firstName: string | null;
  lastName: string | null;
}

export interface Passkey {
  id: string;
  name: string | null;
  createdAt: string;
}

/** The signed-in member's session (SignedIn.session, or GET /v1/me's with its passkeys). */
export interface Session {
  member: Member;
  organization: { id: string; name: string };
  csrfToken: string;
  expiresAt: string;
  passkeys?: Passkey[];
}

export interface Lead {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  suburb: string | null;
  businessName: string | null;
  status: LeadStatus;
  value: number | null;
  lostReason: string | null;
  wonAt: string | null;
  lostAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastInquiryDate: string | null;
  smsOptedOut: boolean;
}

export interface LeadActivity {
  id: number;
  event: string;
  data: string | null;
  createdAt: string;
}

export type CallOutcome = 'ANSWERED' | 'MISSED' | 'TRANSFERRED';

export interface InquiryListItem {
  id: string;
  source: InquirySource;
  tag: string;
  summary: string;
  callOutcome: CallOutcome | null;
  isRead: boolean;
  leadId: string;
  sourceId: string;
  createdAt: string;
  lead?: { id: string; firstName: string | null; lastName: string | null; phone: string | null; email: string | null; businessName: string | null } | null;
}

export interface CallData {
  summary: string;
  keyPoints: string[];
  recordingUrl: string | null;
  transcripts: { id: string; text: string; user: 'user' | 'assistant'; created_at: string }[];
  transcriptTruncated: boolean;
  duration: number;
  startedAt: string;
  endReason?: string | null;
}

export interface EmailData {
  subject: string;
  from: string;
  body: string;
}

export interface ChatbotData {
  messages: { id: string; role: 'user' | 'assistant'; text: string; createdAt: string }[];
}

export interface WebformData {
  formName: string;
  fields: { name: string; label: string; value: string }[];
  pageUrl: string | null;
  droppedFiles?: string[];
}

/** GET /v1/inquiries/{id}: the list item with its source's record (an SMS one's `data.id` is its thread). */
export type Inquiry = Omit<InquiryListItem, 'sourceId' | 'lead'> &
  (
    | { source: 'CALL'; data: CallData }
    | { source: 'EMAIL'; data: EmailData }
    | { source: 'CHATBOT'; data: ChatbotData }
    | { source: 'SMS'; data: { id: string } }
    | { source: 'WEBFORM'; data: WebformData }
  );

export interface Sms {
  id: string;
  direction: 'INBOUND' | 'OUTBOUND';
  status: 'QUEUED' | 'SENT' | 'DELIVERED' | 'FAILED' | 'RECEIVED';
  body: string;
  leadId: string;
  userId: string | null;
  messageThreadId: string;
  automationRunId?: string;
  createdAt: string;
}

export interface Appointment {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  location: string | null;
  status: 'BOOKED' | 'CANCELLED' | 'COMPLETED' | 'NO_SHOW';
}

export type StepType = 'wait' | 'send_sms' | 'notify_member' | 'set_lead_status' | 'add_note' | 'webhook';

export interface AutomationStep {
  type: StepType;
  duration?: string;
  before?: string;
  template?: string;
  status?: LeadStatus;
  url?: string;
  memberId?: number;
}

export interface Automation {
  id: string;
  name: string;
  isEnabled: boolean;
  trigger: { event: string; filter?: Record<string, unknown> };
  steps: AutomationStep[];
  stopWhen: string[];
  updatedAt: string;
}

export interface AutomationTemplate {
  id: string;
  name: string;
  description: string;
}

export type RunStatus = 'WAITING' | 'RUNNING' | 'COMPLETED' | 'STOPPED' | 'FAILED';

export interface RunStep {
  index: number;
  type: StepType;
  status: 'PENDING' | 'WAITING' | 'RUNNING' | 'DONE' | 'SKIPPED' | 'FAILED' | 'CANCELLED';
  dueAt: string | null;
  at: string | null;
  result?: { smsId?: string; reason?: string; deferredBy?: string; webhookStatus?: number | null; attempts?: number };
}

export interface AutomationRun {
  id: string;
  automationId: string;
  leadId: string;
  status: RunStatus;
  stoppedReason: string | null;
  failedReason: string | null;
  nextStepAt: string | null;
  steps: RunStep[];
  createdAt: string;
  updatedAt: string;
}

export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export const WEEKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
export type WeeklyHours = Partial<Record<Weekday, { open: string; close: string }[]>>;

export interface Organization {
  id: string;
  name: string;
  timezone: string;
  currency: string;
  businessHours: WeeklyHours | null;
  closedDates: string[];
}

export interface Service {
  id: number;
  name: string;
  description: string;
  pricingType: string;
  price: number | null;
  isActive: boolean;
}

export interface Product {
  id: number;
  name: string;
  description: string;
  pricingType: string;
  price: number | null;
  isActive: boolean;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  isEnabled: boolean;
  disabledReason: 'GONE' | 'FAILING' | 'EXPIRED' | null;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  statusCode: number | null;
  error: string | null;
  attemptedAt: string | null;
  nextAttemptAt: string | null;
}

export interface OAuthGrant {
  id: string;
  clientName: string;
  scope: 'read' | 'write' | 'full';
  createdAt: string;
  lastUsedAt: string | null;
}

/** An API key as listed, never with its token (shared/auth/api-key.ts's summary). */
export interface ApiKeySummary {
  id: string;
  name: string | null;
  scope: 'read' | 'write' | 'full';
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface ReportSummary {
  from: string;
  to: string;
  currency: string;
  leads: { created: number; won: { count: number; value: number }; bySource: Record<string, number> };
  inquiries: { total: number; bySource: Record<InquirySource, number> };
  calls: { taken: number; missed: number; transferred: number };
  speedToLead: { leads: number; medianSeconds: number | null; p90Seconds: number | null; within5Minutes: { count: number; share: number | null } };
}

export interface ReportFunnel {
  stages: { status: LeadStatus; reached: number; conversionToNext: number | null }[];
  lost: number;
}

export interface ReportTimeseries {
  metric: string;
  interval: 'day' | 'week' | 'month';
  points: { start: string; value: number | null }[];
}
