import { LEAD_ID } from '../leads/examples';
import { USER_ID } from '../organization/examples';

/** The appointment's example in the OpenAPI document (see functions/leads/examples.ts). */
export const appointment = {
  id: 'appointment_01JD1H3Q9V7C5X3Z1B9N7M5K3J',
  leadId: LEAD_ID,
  title: 'Blocked drain inspection',
  startsAt: '2026-11-21T22:00:00.000Z',
  endsAt: '2026-11-21T23:00:00.000Z',
  timezone: 'Australia/Sydney',
  location: '14 Church St, Parramatta NSW 2150',
  attendees: [{ userId: USER_ID }],
  notes: 'Side gate is unlocked; dog is friendly.',
  status: 'BOOKED',
  createdAt: '2026-11-20T04:20:00.000Z',
  updatedAt: '2026-11-20T04:20:00.000Z',
};

/** A free slot and a hold on one. */
export const slot = {
  startsAt: '2026-12-01T22:00:00.000Z',
  endsAt: '2026-12-01T23:00:00.000Z',
  startsAtLocal: '2026-12-02T09:00:00+11:00',
  endsAtLocal: '2026-12-02T10:00:00+11:00',
  startsAtLabel: 'Wed 2 Dec, 9:00 am',
  memberIds: [2, 3],
};

export const hold = {
  id: 'hold_01JD1H3Q9V7C5X3Z1B9N7M5K3J',
  serviceId: 1,
  startsAt: '2026-12-01T22:00:00.000Z',
  endsAt: '2026-12-01T23:00:00.000Z',
  startsAtLocal: '2026-12-02T09:00:00+11:00',
  endsAtLocal: '2026-12-02T10:00:00+11:00',
  startsAtLabel: 'Wed 2 Dec, 9:00 am',
  memberId: 2,
  leadId: null,
  expiresAt: '2026-11-30T04:25:00.000Z',
  createdAt: '2026-11-30T04:20:00.000Z',
};
