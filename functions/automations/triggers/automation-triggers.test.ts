import { describe, expect, it } from 'vitest';
import { WRITER_ATTRIBUTE, type WriterStamp } from '#shared/audit/writer';
import type { Event } from '../../events/schema';
import { appointment } from '../../appointments/examples';
import { inquiryListItem } from '../../inquiries/examples';
import { lead, LEAD_ID } from '../../leads/examples';
import { sms } from '../../sms/examples';
import { TRIGGER_NAMES } from '../catalog';
import { enabledAutomationsOnce, movedAppointmentOf, runWriterOf, stopsOf } from './on-events';
import { filterMatches, triggersOf } from './conditions';

// Events as the stream consumer builds them (functions/stream/record.ts), their data the API's own examples.
const EVENT_ID = 'evt_01JD1H3Q9V7C5X3Z1B9N7M5K3J';
const ORGANIZATION = 'organization_1';
const event = (type: string, data: Record<string, unknown>, previousAttributes?: Record<string, unknown>) =>
  ({ id: EVENT_ID, type, occurredAt: '2026-11-20T04:15:42.118Z', organizationId: ORGANIZATION, data, ...(previousAttributes ? { previousAttributes } : {}) }) as Event;

const call = (fields: Record<string, unknown>) => event('inquiry.created', { ...inquiryListItem, source: 'CALL', tag: 'QUOTE', ...fields });
const names = (fired: Event) => triggersOf(fired).map(({ trigger }) => trigger);

describe('the triggers an event fires', () => {
  it('fires call.missed and inquiry.created for a CALL inquiry whose call was MISSED, with its lead and tag', () => {
    expect(triggersOf(call({ callOutcome: 'MISSED' }))).toEqual([
      { trigger: 'call.missed', leadId: LEAD_ID, fields: { tag: 'QUOTE' } },
      { trigger: 'inquiry.created', leadId: LEAD_ID, fields: { source: 'CALL', tag: 'QUOTE' } },
    ]);
  });

  it.each(['ANSWERED', 'TRANSFERRED', null])('fires no call.missed for a call whose outcome is %s', (callOutcome) => {
    expect(names(call({ callOutcome }))).toEqual(['inquiry.created']);
  });

  it('fires no call.missed for an inquiry of another source, even one that says MISSED', () => {
    expect(names(event('inquiry.created', { ...inquiryListItem, source: 'WEBFORM', callOutcome: 'MISSED' }))).toEqual(['inquiry.created']);
  });

  it('fires inquiry.created with the source and tag a filter may read', () => {
    expect(triggersOf(event('inquiry.created', inquiryListItem))).toEqual([{ trigger: 'inquiry.created', leadId: LEAD_ID, fields: { source: 'SMS', tag: 'BOOKING' } }]);
  });

  it('fires lead.created with the lead as its record and its status', () => {
    expect(triggersOf(event('lead.created', lead))).toEqual([{ trigger: 'lead.created', leadId: LEAD_ID, fields: { status: 'NEW' } }]);
  });

  it('fires lead.status_changed for an update that moved the status, with the status before and after', () => {
    expect(triggersOf(event('lead.updated', { ...lead, status: 'QUOTED' }, { status: 'CONTACTED' }))).toEqual([
      { trigger: 'lead.status_changed', leadId: LEAD_ID, fields: { from: 'CONTACTED', to: 'QUOTED' } },
    ]);
  });

  it('fires nothing for an update of a lead that left its status alone', () => {
    expect(triggersOf(event('lead.updated', { ...lead, suburb: 'Glebe' }, { suburb: 'Parramatta' }))).toEqual([]);
  });

  it('fires appointment.booked for a new appointment, with its lead and itself as the record', () => {
    expect(triggersOf(event('appointment.created', appointment))).toEqual([{ trigger: 'appointment.booked', leadId: LEAD_ID, appointmentId: appointment.id, fields: {} }]);
  });

  it('fires no appointment.booked for an appointment booked after its start: nothing to confirm or remind of', () => {
    const booked = (startsAt: string) => names({ ...event('appointment.created', { ...appointment, startsAt }), occurredAt: '2026-11-20T04:15:42.118Z' });
    expect(booked('2026-11-20T04:15:43.000Z')).toEqual(['appointment.booked']);
    expect(booked('2026-11-20T04:15:42.118Z')).toEqual([]);
    expect(booked('2026-11-19T22:00:00.000Z')).toEqual([]);
  });

  it('fires appointment.cancelled for the update that moved an appointment to CANCELLED, and for no other update', () => {
    const cancelled = event('appointment.updated', { ...appointment, status: 'CANCELLED' }, { status: 'BOOKED' });
    expect(triggersOf(cancelled)).toEqual([{ trigger: 'appointment.cancelled', leadId: LEAD_ID, appointmentId: appointment.id, fields: {} }]);
    expect(triggersOf(event('appointment.updated', { ...appointment, startsAt: '2026-11-23T22:00:00.000Z' }, { startsAt: appointment.startsAt }))).toEqual([]);
    // A cancelled appointment's later change (its notes) is not a second cancellation.
    expect(triggersOf(event('appointment.updated', { ...appointment, status: 'CANCELLED', notes: 'Gate code 1234' }, { notes: appointment.notes }))).toEqual([]);
  });

  it('fires appointment.completed for the appointment marked COMPLETED', () => {
    expect(names(event('appointment.completed', { ...appointment, status: 'COMPLETED' }))).toEqual(['appointment.completed']);
    expect(names(event('appointment.no_show', { ...appointment, status: 'NO_SHOW' }))).toEqual([]);
  });

  it('fires sms.received for a message from a lead, about that lead', () => {
    expect(triggersOf(event('sms.received', { ...sms, direction: 'INBOUND', status: 'RECEIVED', userId: null }))).toEqual([{ trigger: 'sms.received', leadId: LEAD_ID, fields: {} }]);
    expect(triggersOf(event('sms.sent', sms))).toEqual([]);
  });

  it('fires every trigger of the catalog from some event, and nothing from the events no trigger starts from', () => {
    const fired = [
      call({ callOutcome: 'MISSED' }),
      event('lead.created', lead),
      event('lead.updated', { ...lead, status: 'WON' }, { status: 'QUOTED' }),
      event('appointment.created', appointment),
      event('appointment.updated', { ...appointment, status: 'CANCELLED' }, { status: 'BOOKED' }),
      event('appointment.completed', { ...appointment, status: 'COMPLETED' }),
      event('sms.received', { ...sms, direction: 'INBOUND', status: 'RECEIVED' }),
    ].flatMap(names);
    expect(new Set(fired)).toEqual(new Set(TRIGGER_NAMES));
    for (const type of ['lead.deleted', 'lead.note_added', 'inquiry.updated', 'sms.delivered', 'hold.created', 'product.created']) expect(triggersOf(event(type, lead)), type).toEqual([]);
  });

  it('fires nothing when the record names no lead', () => {
    expect(triggersOf(call({ callOutcome: 'MISSED', leadId: null }))).toEqual([]);
    expect(triggersOf(event('appointment.created', { ...appointment, id: undefined }))).toEqual([]);
  });
});

describe('a trigger filter', () => {
  it('matches everything when it names no field', () => {
    expect(filterMatches({}, {})).toBe(true);
    expect(filterMatches({}, { source: 'CALL' })).toBe(true);
  });

  it.each([
    ['tag (call.missed)', { tag: 'QUOTE' }, call({ callOutcome: 'MISSED' }), 'call.missed'],
    ['source (inquiry.created)', { source: 'CALL' }, call({}), 'inquiry.created'],
    ['tag (inquiry.created)', { tag: 'QUOTE' }, call({}), 'inquiry.created'],
    ['status (lead.created)', { status: 'NEW' }, event('lead.created', lead), 'lead.created'],
    ['from (lead.status_changed)', { from: 'CONTACTED' }, event('lead.updated', { ...lead, status: 'QUOTED' }, { status: 'CONTACTED' }), 'lead.status_changed'],
    ['to (lead.status_changed)', { to: 'QUOTED' }, event('lead.updated', { ...lead, status: 'QUOTED' }, { status: 'CONTACTED' }), 'lead.status_changed'],
  ] as const)('on %s matches its value, one of a list, and no other value', (_, filter, fired, trigger) => {
    const { fields } = triggersOf(fired).find((candidate) => candidate.trigger === trigger)!;
    const [field, value] = Object.entries(filter)[0]!;
    expect(filterMatches(filter, fields)).toBe(true);
    expect(filterMatches({ [field]: ['OTHER', value] }, fields)).toBe(true);
    expect(filterMatches({ [field]: 'OTHER' }, fields)).toBe(false);
    expect(filterMatches({ [field]: ['OTHER', 'ANOTHER'] }, fields)).toBe(false);
    expect(filterMatches({ [field]: [] }, fields)).toBe(false);
  });

  it('matches only when every field it names matches', () => {
    const fields = triggersOf(event('lead.updated', { ...lead, status: 'QUOTED' }, { status: 'CONTACTED' }))[0]!.fields;
    expect(filterMatches({ from: 'CONTACTED', to: 'QUOTED' }, fields)).toBe(true);
    expect(filterMatches({ from: 'NEW', to: 'QUOTED' }, fields)).toBe(false);
    expect(filterMatches({ from: 'CONTACTED', to: 'WON' }, fields)).toBe(false);
  });

  it('does not match a field the record lacks (an inquiry’s tag absent, a status that was null)', () => {
    expect(filterMatches({ tag: 'QUOTE' }, triggersOf(call({ callOutcome: 'MISSED', tag: null }))[0]!.fields)).toBe(false);
    expect(filterMatches({ from: 'NEW' }, triggersOf(event('lead.updated', lead, { status: null }))[0]!.fields)).toBe(false);
  });
});

describe('the runs an event stops or moves', () => {
  const leadWatch = { kind: 'lead', leadId: LEAD_ID };

  it('stops the lead’s runs when the lead replies', () => {
    expect(stopsOf(event('sms.received', { ...sms, direction: 'INBOUND', status: 'RECEIVED' }))).toEqual([{ watched: leadWatch, condition: 'lead.replied' }]);
  });

  it('stops them when a member texts the lead themselves, and not for an automation’s text', () => {
    expect(sms.userId).toMatch(/^user_/);
    expect(stopsOf(event('sms.sent', sms))).toEqual([{ watched: leadWatch, condition: 'member.contacted' }]);
    expect(stopsOf(event('sms.sent', { ...sms, userId: null, automationRunId: 'run_01JCZ41C5D6E7F8G9H0J1K2M3N' }))).toEqual([]);
    // Delivered or failed, it is the same text: only its sending counts.
    expect(stopsOf(event('sms.delivered', { ...sms, status: 'DELIVERED' }))).toEqual([]);
  });

  it('stops them when the lead’s status moves, and when it opts out, and not for other updates', () => {
    expect(stopsOf(event('lead.updated', { ...lead, status: 'WON' }, { status: 'QUOTED' }))).toEqual([{ watched: leadWatch, condition: 'lead.status_changed' }]);
    expect(stopsOf(event('lead.updated', { ...lead, smsOptedOut: true }, { smsOptedOut: false }))).toEqual([{ watched: leadWatch, condition: 'lead.opted_out' }]);
    expect(stopsOf(event('lead.updated', { ...lead, smsOptedOut: false }, { smsOptedOut: true }))).toEqual([]);
    expect(stopsOf(event('lead.updated', { ...lead, suburb: 'Glebe' }, { suburb: 'Parramatta' }))).toEqual([]);
  });

  it('stops every run of a deleted lead', () => {
    expect(stopsOf(event('lead.deleted', lead))).toEqual([{ watched: leadWatch, condition: 'lead.deleted' }]);
  });

  it('stops the appointment’s runs when it is cancelled, and moves their waits when it moves', () => {
    const cancelled = event('appointment.updated', { ...appointment, status: 'CANCELLED' }, { status: 'BOOKED' });
    expect(stopsOf(cancelled)).toEqual([{ watched: { kind: 'appointment', appointmentId: appointment.id }, condition: 'appointment.cancelled' }]);
    expect(movedAppointmentOf(cancelled)).toBeUndefined();
    expect(movedAppointmentOf(event('appointment.updated', { ...appointment, startsAt: '2026-11-23T22:00:00.000Z' }, { startsAt: appointment.startsAt }))).toBe(appointment.id);
    expect(movedAppointmentOf(event('appointment.updated', { ...appointment, endsAt: '2026-11-21T23:30:00.000Z' }, { endsAt: appointment.endsAt }))).toBe(appointment.id);
    expect(movedAppointmentOf(event('appointment.updated', { ...appointment, notes: 'Gate code 1234' }, { notes: appointment.notes }))).toBeUndefined();
    expect(stopsOf(event('appointment.completed', { ...appointment, status: 'COMPLETED' }))).toEqual([]);
  });

  it('names the run that wrote a change as its writer, and no run for a request’s write or a write the item already carried', () => {
    const stamp = (via: string, requestId: string, write = 1): WriterStamp =>
      ({ keyId: null, keyName: null, requestId, method: null, path: null, via, at: '2026-11-20T04:15:42.118Z', write }) as WriterStamp;
    const byRun = { ...lead, [WRITER_ATTRIBUTE]: stamp('automation', 'run_1') };
    expect(runWriterOf({ kind: 'MODIFY', oldItem: lead, newItem: byRun })).toBe('run_1');
    expect(runWriterOf({ kind: 'MODIFY', oldItem: lead, newItem: { ...lead, [WRITER_ATTRIBUTE]: stamp('api', 'request-1') } })).toBeUndefined();
    // An update by no writer (a scheduled job) leaves the run's earlier stamp on the item: that change is not the run's.
    expect(runWriterOf({ kind: 'MODIFY', oldItem: byRun, newItem: { ...byRun, unreadSMS: 2 } })).toBeUndefined();
    expect(runWriterOf({ kind: 'MODIFY', oldItem: lead, newItem: lead })).toBeUndefined();
  });
});

describe('the enabled automations of a stream batch', () => {
  it('are read once per organization and trigger, and read again after a failed read', async () => {
    const reads: string[] = [];
    let failNext = true;
    const enabled = enabledAutomationsOnce(async (organizationId, trigger) => {
      reads.push(`${organizationId} ${trigger}`);
      if (failNext) {
        failNext = false;
        throw new Error('throttled');
      }
      return [{ automationId: 'automation_1', version: 1, filter: {} }];
    });
    await expect(enabled('organization_1', 'call.missed')).rejects.toThrow('throttled');
    await enabled('organization_1', 'call.missed');
    await enabled('organization_1', 'call.missed');
    await enabled('organization_1', 'lead.created');
    await enabled('organization_2', 'call.missed');
    expect(reads).toEqual(['organization_1 call.missed', 'organization_1 call.missed', 'organization_1 lead.created', 'organization_2 call.missed']);
  });
});
