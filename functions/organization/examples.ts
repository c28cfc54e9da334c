/** Examples of the organization's components in the OpenAPI document (see functions/leads/examples.ts). */
export const USER_ID = 'user_01JBQ0ZP5W9X7Y3Z1A2B4C6D8E';

export const memberUser = { id: USER_ID, email: 'daniel@harbourcitytrades.com.au' };

export const member = {
  id: 2,
  role: 'MANAGER',
  firstName: 'Daniel',
  lastName: 'Russo',
  position: 'Operations Manager',
  responsibility: 'Scheduling crews, job follow-ups and strata clients',
  phone: '+61412555014',
  avatarImg: 'https://images.harbourcitytrades.com.au/team/daniel-russo.jpg',
  isDisabled: false,
  workingHours: null,
  user: memberUser,
  updatedAt: '2026-11-02T23:15:00.000Z',
};

export const organization = {
  id: 'org_01JA0000000000000000000000',
  name: 'Harbour City Trades',
  timezone: 'Australia/Sydney',
  country: 'AU',
  currency: 'AUD',
  smsSenderId: 'HarbourCity',
  businessHours: {
    monday: [{ open: '07:00', close: '17:00' }],
    tuesday: [{ open: '07:00', close: '17:00' }],
    wednesday: [{ open: '07:00', close: '17:00' }],
    thursday: [{ open: '07:00', close: '17:00' }],
    friday: [{ open: '07:00', close: '17:00' }],
    saturday: [{ open: '08:00', close: '12:00' }],
  },
  closedDates: ['2026-12-25', '2026-12-28', '2027-01-01'],
  automationSmsDailyCap: 3,
  ownerAlertsSms: true,
  createdAt: '2025-10-18T22:00:00.000Z',
  counts: { leads: 9, members: 4, services: 5 },
  // Friday 2026-11-27, 18:30 in Sydney.
  isOpenNow: false,
  closesAt: null,
  nextOpenAt: '2026-11-27T21:00:00.000Z',
};

export const invitation = { id: 5, email: 'liam.kelly@harbourcitytrades.com.au', role: 'MEMBER', firstName: 'Liam', lastName: 'Kelly', status: 'PENDING', createdAt: '2026-11-20T03:00:00.000Z', updatedAt: '2026-11-20T03:00:00.000Z' };
