import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { localTime } from '#shared/local-time';
import { getAppointment } from '../../appointments/store';
import type { Appointment } from '../../appointments/schema';
import { getLead } from '../../leads/read';
import type { Lead } from '../../leads/schema';
import { organizationKeys } from '../../organization/entity';
import { memberKeys } from '../../organization/member-entity';
import { getMember } from '../../organization/member-store';
import { fromOrganizationItem } from '../../organization/schema';
import type { AutomationDefinition } from '../catalog';
import { dailyCapOf } from '../steps/cap';
import type { OrganizationClock } from '../steps/quiet-hours';
import type { TemplateValues } from '../steps/templates';

/** The organization as a run reads it: its name for templates, its clock for quiet hours, its cap. */
export interface RunOrganization extends OrganizationClock {
  name: string;
  dailyCap: number;
}

/** Everything a run's steps read besides the run: one read each, made once per delivery. */
export interface RunContext {
  organizationId: string;
  organization: RunOrganization;
  definition: AutomationDefinition;
  lead: Lead | undefined;
  appointment: Appointment | undefined;
  /** The first attendee's first name (`member.firstName` of appointment triggers). */
  attendeeFirstName: string | null;
}

export async function readRunOrganization(organizationId: string): Promise<RunOrganization> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ConsistentRead: true }));
  if (!Item) throw new Error(`Organization ${organizationId} of a run is gone`);
  const organization = fromOrganizationItem(Item);
  return { name: organization.name, timezone: organization.timezone, closedDates: organization.closedDates, dailyCap: dailyCapOf(Item) };
}

async function firstAttendeeName(organizationId: string, appointment: Appointment | undefined): Promise<string | null> {
  const userId = appointment?.attendees[0]?.userId;
  if (!userId) return null;
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: memberKeys.user(organizationId, userId) }));
  const member = typeof Item?.memberId === 'number' ? await getMember(organizationId, Item.memberId) : undefined;
  return member?.firstName ?? null;
}

/** Reads what the steps of a run on this lead (and appointment) need. */
export async function readRunContext(organizationId: string, definition: AutomationDefinition, leadId: string, appointmentId: string | null): Promise<RunContext> {
  const [organization, lead, appointment] = await Promise.all([
    readRunOrganization(organizationId),
    getLead(organizationId, leadId),
    appointmentId ? getAppointment(organizationId, appointmentId).then((read) => read?.value) : Promise.resolve(undefined),
  ]);
  return { organizationId, organization, definition, lead, appointment, attendeeFirstName: await firstAttendeeName(organizationId, appointment) };
}

/** The instant (ms) an anchor (`appointment.startsAt`) names, when the run has its record. */
export function anchorAt(context: RunContext, anchor: string): number | undefined {
  const { appointment } = context;
  if (!appointment) return undefined;
  if (anchor === 'appointment.startsAt') return Date.parse(appointment.startsAt);
  if (anchor === 'appointment.endsAt') return Date.parse(appointment.endsAt);
  return undefined;
}

/** The values a step's template reads; `member` is a notify_member step's own member. */
export function templateValues(context: RunContext, member?: { firstName: string | null }): TemplateValues {
  const { lead, appointment, organization } = context;
  return {
    'lead.firstName': lead?.firstName ?? null,
    'lead.lastName': lead?.lastName ?? null,
    'lead.phone': lead?.phone ?? null,
    'lead.email': lead?.email ?? null,
    'organization.name': organization.name,
    'appointment.startsAt': appointment ? localTime(organization.timezone, appointment.startsAt).label : null,
    'appointment.title': appointment?.title ?? null,
    'service.name': null,
    'member.firstName': member ? member.firstName : context.attendeeFirstName,
  };
}
