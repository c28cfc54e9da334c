import * as v from 'valibot';
import { Appointment } from '../appointments/schema';
import { InquiryListItem } from '../inquiries/schema';
import { Lead } from '../leads/schema';
import { Organization } from '../organization/schema';

/** How many of the caller's latest inquiries and upcoming appointments the answer carries. */
export const CALLER_ITEMS = 5;

export const CallerPath = v.object({
  phone: v.pipe(
    v.string('phone must be a string'),
    v.minLength(1, 'phone must not be empty'),
    v.maxLength(32, 'phone must be at most 32 characters'),
    v.description('The caller’s number in any common form: E.164 (`+61412345678`, as voice platforms send it) or national (`0412 345 678`, read in the organization’s `country`); one that is no valid number answers 400.'),
  ),
});

export const Caller = v.object({
  /** The organization's lead with this phone, or null for a caller it does not know. */
  lead: v.nullable(Lead),
  /** The lead's latest inquiries (at most 5), unread first, then newest first. */
  openInquiries: v.array(InquiryListItem),
  /** The lead's appointments that have not started, not cancelled, soonest first (at most 5). */
  upcomingAppointments: v.array(Appointment),
  /** Whether the number replied STOP: no SMS goes to it. Known for an unknown caller too. */
  smsOptedOut: v.boolean(),
});

export const CallerResponse = v.object({
  caller: Caller,
  /** Whether the business is open now and, while closed, when it next opens (null while open or with no hours set). */
  organization: v.pick(Organization, ['name', 'timezone', 'isOpenNow', 'nextOpenAt']),
});
export type CallerResponse = v.InferOutput<typeof CallerResponse>;
