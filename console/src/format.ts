import { store } from './store';
import type { CallOutcome, InquirySource, Lead, LeadStatus, Role, StepType, StoppedReason } from './types';

export const STATUS_LABELS: Record<LeadStatus, string> = { NEW: 'New', CONTACTED: 'Contacted', QUALIFIED: 'Qualified', QUOTED: 'Quoted', WON: 'Won', LOST: 'Lost' };
export const SOURCE_LABELS: Record<InquirySource, string> = { CALL: 'Call', EMAIL: 'Email', CHATBOT: 'Chat', SMS: 'SMS', WEBFORM: 'Web form' };
export const OUTCOME_LABELS: Record<CallOutcome, string> = { ANSWERED: 'Answered', MISSED: 'Missed', TRANSFERRED: 'Transferred' };
export const ROLE_LABELS: Record<Role, string> = { ADMIN: 'Admin', MANAGER: 'Manager', MEMBER: 'Member' };

/** Why a run stopped, in the owner's words (AutomationRun.stoppedReason). */
export const STOPPED_REASONS: Record<StoppedReason, string> = {
  cancelled: 'Cancelled by hand',
  'lead.replied': 'The lead replied',
  'lead.opted_out': 'The lead opted out of texts',
  'lead.status_changed': 'The lead’s status changed',
  'appointment.cancelled': 'The appointment was cancelled',
  'member.contacted': 'A team member texted the lead',
  'lead.deleted': 'The lead was deleted',
  'automation.deleted': 'The automation was deleted',
  LOOP_DETECTED: 'Stopped a loop of automations',
  DAILY_RUN_CAP_REACHED: 'The daily limit of runs was reached',
};

export const STEP_LABELS: Record<StepType, string> = {
  wait: 'Wait',
  send_sms: 'Send a text',
  notify_member: 'Text a team member',
  set_lead_status: 'Set the lead’s status',
  add_note: 'Add a note',
  webhook: 'Call a webhook',
};

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * The organization's timezone, once read: every time shows on the business's clock, wherever the browser is (an owner
 * away, a laptop set to another zone), the zone named when it is not the browser's own.
 */
export const timeZone = store<string | undefined>(undefined);
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const dateTimes = new Map<string, Intl.DateTimeFormat>();
function dateTimeIn(zone: string | undefined): Intl.DateTimeFormat {
  const key = zone ?? '';
  let format = dateTimes.get(key);
  if (!format) {
    const named = zone !== undefined && zone !== BROWSER_ZONE;
    // timeStyle cannot name the zone: the same fields, spelt out, can.
    format = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', ...(zone ? { timeZone: zone } : {}), ...(named ? { timeZoneName: 'short' } : {}) });
    dateTimes.set(key, format);
  }
  return format;
}

export const when = (iso: string | null | undefined) => (iso ? dateTimeIn(timeZone.get()).format(new Date(iso)) : '—');
/** A local date (YYYY-MM-DD) as words, read as that calendar day wherever the browser is. */
export const day = (date: string) => dateOnly.format(new Date(`${date}T12:00:00`));

export function money(value: number | null | undefined, currency = 'AUD'): string {
  if (value === null || value === undefined) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}

export function seconds(total: number | null | undefined): string {
  if (total === null || total === undefined) return '—';
  if (total < 60) return `${Math.round(total)} s`;
  if (total < 3600) return `${Math.round(total / 60)} min`;
  if (total < 86_400) return `${(total / 3600).toFixed(1)} h`;
  return `${(total / 86_400).toFixed(1)} days`;
}

export const percent = (share: number | null | undefined) => (share === null || share === undefined ? '—' : `${Math.round(share * 100)}%`);

/** What to call a lead: its name, else its business, phone or email. */
export function leadName(lead: Pick<Lead, 'firstName' | 'lastName' | 'businessName' | 'phone' | 'email'> | null | undefined): string {
  if (!lead) return 'Unknown lead';
  const name = [lead.firstName, lead.lastName].filter(Boolean).join(' ');
  return name || lead.businessName || lead.phone || lead.email || 'Unnamed lead';
}
