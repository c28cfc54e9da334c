/**
 * What an automation can be made of, as data: its triggers (each from an event the service already records), what
 * stops a run, and the limits (the step kinds are ./steps/schema.ts). The schemas (./schema.ts), the runner (./engine/runner.ts), the triggers
 * (./triggers/conditions.ts) and the document read these; nothing here reads the table.
 */
import { INQUIRY_SOURCES } from '../inquiries/kinds';
import { LEAD_STATUSES } from '../leads/attributes';
import type { Step } from './steps/schema';

export const LIMITS = {
  steps: 20,
  automationsPerOrganization: 50,
  minimumWaitMs: 60_000,
  maximumWaitMs: 365 * 24 * 3_600_000,
  smsCharacters: 1_600,
  /** Automated SMS one lead receives in one local day, unless the organization sets `automationSmsDailyCap`. */
  dailySmsPerLead: 3,
  /** Texts of notify_member steps one member receives in one local day: a lead's cap is no bound on them. */
  dailyTextsPerMember: 25,
  /**
   * How deep a chain of runs goes, each started by a write of the one before (a run started by anything else is 1
   * deep): a run deeper is not started but recorded STOPPED LOOP_DETECTED, so automations that trigger each other end.
   */
  chainDepth: 3,
  /** Runs one automation starts for one lead in one local day from its events; past it a run is recorded STOPPED DAILY_RUN_CAP_REACHED. */
  runsPerLeadPerDay: 10,
} as const;

/** The record a trigger's run is about, whose times a `wait` may be anchored on. */
export type TriggerRecord = 'inquiry' | 'lead' | 'appointment';

export interface TriggerDefinition {
  description: string;
  /** The event type it starts from (before its own condition, ./triggers/conditions.ts). */
  from: string;
  /** Fields a filter may name, each with the values it may take (undefined: any string). */
  filter: Readonly<Record<string, readonly string[] | undefined>>;
  record: TriggerRecord;
  /** The record's times a `wait` may count back from (`{before: "appointment.startsAt"}`). */
  anchors: readonly string[];
  /** Template variables beyond `lead.*` and `organization.*`. */
  variables: readonly string[];
  /** Whether a lead may be enrolled by hand (POST /v1/automations/{id}/runs). */
  enrolByHand: boolean;
}

const APPOINTMENT_VARIABLES = ['appointment.startsAt', 'appointment.title', 'service.name', 'member.firstName'] as const;
const APPOINTMENT_ANCHORS = ['appointment.startsAt', 'appointment.endsAt'] as const;

export const TRIGGERS = {
  'call.missed': { description: 'A CALL inquiry whose call ended without the caller being served (its `callOutcome` is `MISSED`).', from: 'inquiry.created', filter: { tag: undefined }, record: 'inquiry', anchors: [], variables: [], enrolByHand: false },
  'inquiry.created': { description: 'An inquiry arrived, from any source or those the filter names.', from: 'inquiry.created', filter: { source: INQUIRY_SOURCES, tag: undefined }, record: 'inquiry', anchors: [], variables: [], enrolByHand: false },
  'lead.created': { description: 'A lead was created.', from: 'lead.created', filter: { status: LEAD_STATUSES }, record: 'lead', anchors: [], variables: [], enrolByHand: true },
  'lead.status_changed': { description: "A lead's status moved (from and to the statuses the filter names).", from: 'lead.updated', filter: { from: LEAD_STATUSES, to: LEAD_STATUSES }, record: 'lead', anchors: [], variables: [], enrolByHand: true },
  'appointment.booked': { description: 'An appointment was booked for a time still ahead (one recorded after its start is not).', from: 'appointment.created', filter: {}, record: 'appointment', anchors: APPOINTMENT_ANCHORS, variables: APPOINTMENT_VARIABLES, enrolByHand: true },
  'appointment.cancelled': { description: 'An appointment was cancelled.', from: 'appointment.updated', filter: {}, record: 'appointment', anchors: APPOINTMENT_ANCHORS, variables: APPOINTMENT_VARIABLES, enrolByHand: true },
  'appointment.completed': { description: 'An appointment was marked completed.', from: 'appointment.completed', filter: {}, record: 'appointment', anchors: APPOINTMENT_ANCHORS, variables: APPOINTMENT_VARIABLES, enrolByHand: true },
  'sms.received': { description: 'A lead sent an SMS.', from: 'sms.received', filter: {}, record: 'lead', anchors: [], variables: [], enrolByHand: false },
} as const satisfies Record<string, TriggerDefinition>;

export type TriggerName = keyof typeof TRIGGERS;
export const TRIGGER_NAMES = Object.keys(TRIGGERS) as TriggerName[];

/** Variables every trigger supplies; those that may be null need a fallback (`{{lead.firstName|there}}`). */
export const COMMON_VARIABLES = ['lead.firstName', 'lead.lastName', 'lead.phone', 'lead.email', 'organization.name'] as const;
/** Variables that can be empty for some records, so a template must give them a fallback. */
export const NULLABLE_VARIABLES: readonly string[] = ['lead.firstName', 'lead.lastName', 'lead.email', 'service.name', 'member.firstName', 'appointment.title'];

/**
 * What stops a run; `lead.opted_out` applies to SMS steps whether listed or not, and a deleted lead stops every run.
 * `member.contacted`: a member texted the lead (their own message, not an automation's), so a canned one is not sent after.
 */
export const STOP_CONDITIONS = ['lead.replied', 'appointment.cancelled', 'lead.status_changed', 'lead.opted_out', 'member.contacted'] as const;
export type StopCondition = (typeof STOP_CONDITIONS)[number];

export interface QuietHours {
  /** Local times `HH:MM` between which automated SMS may go out. */
  allowedFrom: string;
  allowedUntil: string;
  /** Weekdays (`MONDAY` …) SMS may go out; all when absent. */
  days?: readonly string[];
  /** Whether the organization's `closedDates` are quiet all day. */
  closedDates: boolean;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { allowedFrom: '08:00', allowedUntil: '20:00', closedDates: true };

/** What a run follows: one version of an automation, stored whole and never changed, so a run is not moved by a PATCH. */
export interface AutomationDefinition {
  automationId: string;
  version: number;
  name: string;
  trigger: { event: TriggerName; filter: Readonly<Record<string, string | readonly string[]>> };
  steps: readonly Step[];
  stopWhen: readonly StopCondition[];
  quietHours: QuietHours;
}
