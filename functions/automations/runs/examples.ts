import { leadSummary } from '../../leads/examples';
/** A run's example in the OpenAPI document: the quote follow-up, its text due at 22:00 in Sydney deferred to 08:00 by quiet hours, then the member told. */
export const automationRun = {
  id: 'run_01JD9V3K7P2M5Q8T1W4Y6Z0B3C',
  automationId: 'automation_01JD2Q8M3V6X9C1B4N7R0T5W8Y',
  automationVersion: 3,
  leadId: 'lead_01JD9T8B2C4D6E8F0G2H4J6K8M',
  appointmentId: null,
  triggerEventId: 'evt_01JD9V3K6Z0000000000000417',
  status: 'COMPLETED',
  stoppedReason: null,
  failedReason: null,
  nextStepAt: null,
  steps: [
    { index: 0, type: 'wait', status: 'DONE', dueAt: '2026-11-22T11:00:04.118Z', at: '2026-11-22T11:00:05.310Z', result: {} },
    { index: 1, type: 'send_sms', status: 'DONE', dueAt: '2026-11-22T21:00:00.000Z', at: '2026-11-22T21:00:00.412Z', result: { smsId: 'message_01JDFK2Q9W3E5R7T9Y1U3I5O7P', deferredBy: 'QUIET_HOURS' } },
    { index: 2, type: 'notify_member', status: 'DONE', dueAt: '2026-11-22T21:00:01.190Z', at: '2026-11-22T21:00:01.204Z', result: { smsId: 'message_01JDFK2R0A2S4D6F8G0H2J4K6L' } },
  ],
  createdAt: '2026-11-20T11:00:04.118Z',
  updatedAt: '2026-11-22T21:00:01.390Z',
};

/** A run as a list shows it with `expand=lead`: its lead beside it. */
export const automationRunListItem = { ...automationRun, lead: { ...leadSummary, id: automationRun.leadId } };

/** A bulk enrolment under way: 40 of the 57 QUOTED leads gone through. */
export const automationEnrolment = {
  id: 'enrolment_01JD9V8Q2M4N6P8R0S2T4V6W8X',
  automationId: automationRun.automationId,
  leadStatus: 'QUOTED',
  status: 'RUNNING',
  progress: { done: 40, total: 57 },
  enrolled: 40,
  failure: null,
  createdAt: '2026-11-20T03:00:00.000Z',
  updatedAt: '2026-11-20T03:00:04.120Z',
  finishedAt: null,
};
