/** The automation's examples in the OpenAPI document (see functions/leads/examples.ts). */
export const automationRequest = {
  name: 'Quote follow-up',
  trigger: { event: 'lead.status_changed', filter: { to: 'QUOTED' } },
  steps: [
    { type: 'wait', duration: 'P2D' },
    { type: 'send_sms', template: 'Hi {{lead.firstName|there}}, just checking you got our quote. Any questions, reply here. {{organization.name}}' },
    { type: 'add_note', template: 'Sent the quote follow-up to {{lead.firstName|the lead}}.' },
  ],
  stopWhen: ['lead.replied', 'lead.status_changed'],
  quietHours: { allowedFrom: '08:00', allowedUntil: '19:30', days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'], closedDates: true },
};

export const automation = {
  id: 'automation_01JD2Q8M3V6X9C1B4N7R0T5W8Y',
  isEnabled: true,
  ...automationRequest,
  fromTemplate: null,
  version: 3,
  createdAt: '2026-11-12T03:20:11.402Z',
  updatedAt: '2026-11-19T22:04:57.118Z',
};
