/** The reports' examples in the OpenAPI document: a plumbing business's March, in Sydney. */
const range = { from: '2026-03-01', to: '2026-03-31' };

export const reportSummary = {
  ...range,
  timezone: 'Australia/Sydney',
  currency: 'AUD',
  asOf: '2026-03-31T22:14:03.512Z',
  leads: {
    created: 42,
    bySource: { CALL: 24, EMAIL: 3, CHATBOT: 2, SMS: 1, WEBFORM: 9, NONE: 3 },
    byStatus: { NEW: 6, CONTACTED: 9, QUALIFIED: 7, QUOTED: 8, WON: 9, LOST: 3 },
    pipelineValue: { NEW: 0, CONTACTED: 1250, QUALIFIED: 4380, QUOTED: 12940.5, WON: 15120, LOST: 2100 },
    won: { count: 11, value: 18420 },
    lost: { count: 4, reasons: { PRICE: 2, TIMING: 1, COMPETITOR: 0, NO_RESPONSE: 1, NOT_A_FIT: 0, OTHER: 0 } },
    conversion: 0.2143,
  },
  inquiries: {
    total: 61,
    bySource: { CALL: 38, EMAIL: 5, CHATBOT: 3, SMS: 4, WEBFORM: 11 },
    byTag: { GENERAL: 20, QUOTE_REQUEST: 17, BOOKING: 15, EMERGENCY: 4, FOLLOW_UP: 5, FLAGGED: 0 },
    startedByLead: { total: 57, bySource: { CALL: 37, EMAIL: 5, CHATBOT: 3, SMS: 1, WEBFORM: 11 } },
    startedByBusiness: { total: 4, bySource: { CALL: 1, EMAIL: 0, CHATBOT: 0, SMS: 3, WEBFORM: 0 }, byAutomation: 2 },
  },
  calls: { taken: 31, missed: 7, afterHours: 9, transferred: 4, averageDurationSeconds: 184 },
  speedToLead: { leads: 37, medianSeconds: 42, p90Seconds: 1410, within5Minutes: { count: 29, share: 0.7838 } },
  appointments: { booked: 19, bookedFromCalls: 14, cancelled: 2, completed: 13, noShows: 1 },
  sms: { sent: 48, delivered: 45, failed: 1, received: 22, optOuts: 1 },
  automations: { started: 5, completed: 3, stoppedByReply: 1 },
};

export const reportTimeseries = {
  metric: 'calls.missed',
  interval: 'week',
  ...range,
  points: [
    { start: '2026-02-23', value: 1 },
    { start: '2026-03-02', value: 2 },
    { start: '2026-03-09', value: 1 },
    { start: '2026-03-16', value: 0 },
    { start: '2026-03-23', value: 2 },
    { start: '2026-03-30', value: 1 },
  ],
};

export const reportFunnel = {
  ...range,
  stages: [
    { status: 'NEW', reached: 42, conversionToNext: 0.8571 },
    { status: 'CONTACTED', reached: 36, conversionToNext: 0.7222 },
    { status: 'QUALIFIED', reached: 26, conversionToNext: 0.6538 },
    { status: 'QUOTED', reached: 17, conversionToNext: 0.5294 },
    { status: 'WON', reached: 9, conversionToNext: null },
  ],
  lost: 3,
};

/** A recount that found three days and two leads' histories wrong, and rewrote them. */
export const reportRebuild = {
  id: 'rebuild_01JQ4Y3M8R2D7W5K9T1V6B0C4N',
  status: 'SUCCEEDED',
  progress: { done: 5, total: 5 },
  daysChanged: 3,
  daysUnchanged: 28,
  factsRewritten: 2,
  failure: null,
  createdAt: '2026-04-01T00:12:05.118Z',
  updatedAt: '2026-04-01T00:12:09.402Z',
  finishedAt: '2026-04-01T00:12:09.402Z',
};
