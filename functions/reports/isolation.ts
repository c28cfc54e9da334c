import type { IsolationCases } from '#shared/resource';

/**
 * How the reports answer another organization (test/isolation.test.ts): no id enters. Every report reads the
 * partition of the key's own organization (`ORG#<org>#REPORTS`) and its organization item; no parameter names an
 * organization or a record. functions/reports/reports.test.ts shows B's key answered B's numbers beside A's.
 */
const NO_ID = 'Takes no id: it reads the day counters of the key’s own organization.';

export const isolationCases: IsolationCases = {
  getReportSummary: NO_ID,
  getReportTimeseries: NO_ID,
  getReportFunnel: NO_ID,
};
