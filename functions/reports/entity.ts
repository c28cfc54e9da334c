import { organizationPartition, type Key, keySamplesOf } from '#shared/store/keys';

const org = organizationPartition;

/**
 * The reports' items, written only by the counting consumer (functions/reports/count.ts) and the rebuild: one
 * counter item per organization per local day, a marker per stream record counted, and a facts item per lead. None
 * is a record of the API: both stream consumers skip their entities before any work.
 */
export const REPORT_ENTITIES = { day: 'REPORT_DAY', mark: 'REPORT_MARK', facts: 'REPORT_FACTS', rebuild: 'REPORT_REBUILD' } as const;

/** The records the reports count, by their items' `entity` (./contributions.ts counts each): the counting consumer's filter. */
export const COUNTED_ENTITIES = ['LEAD', 'INQUIRY', 'SMS_MESSAGE', 'APPOINTMENT', 'SMS_OPT_OUT', 'AUTOMATION_RUN'] as const;

/** How long a marker outlives its record: longer than the stream keeps records (24 h) plus the mapping's maxRecordAge (6 h). */
export const MARK_TTL_SECONDS = 2 * 24 * 60 * 60;

export const reportKeys = {
  /** An organization's counters of one local day (`YYYY-MM-DD` in its timezone): one partition per organization, read by one key range. */
  reportDay: (o: string, day: string): Key => ({ pk: `${org(o)}#REPORTS`, sk: `DAY#${day}` }),
  /** The days from `from` to `to`, both included, in date order: at most 366 items, one Query (more pages past 1 MB). */
  reportDays: (o: string, from: string, to: string) => ({ pk: `${org(o)}#REPORTS`, skBetween: [`DAY#${from}`, `DAY#${to}`] as [string, string] }),
  /** A stream record counted, by its eventID: a partition per record, so markers make no hot key; a replay finds it. */
  reportMark: (o: string, eventId: string): Key => ({ pk: `${org(o)}#REPORTS#MARK#${eventId}`, sk: 'MARK' }),
  /** A lead's history as counted (first inquiry, earliest contacts, furthest stage), kept off the lead item. */
  reportLeadFacts: (o: string, leadId: string): Key => ({ pk: `${org(o)}#REPORTS#LEAD#${leadId}`, sk: 'FACTS' }),
  /** A recount an owner started (POST /v1/reports/rebuilds): its status and progress, beside the days it rewrites. */
  reportRebuild: (o: string, rebuildId: string): Key => ({ pk: `${org(o)}#REPORTS`, sk: `REBUILD#${rebuildId}` }),
  /** The organization's one recount under way, by its id, until it ends or its lease lapses: a second is refused. */
  activeReportRebuild: (o: string): Key => ({ pk: `${org(o)}#REPORTS`, sk: 'REBUILDING' }),
} as const;

/** The date a day item's sort key names. */
export const dayOfReportKey = (sk: string) => sk.slice('DAY#'.length);

export const reportKeySamples = keySamplesOf(reportKeys, {
  reportDay: ['2026-03-14'],
  reportDays: ['2026-02-13', '2026-03-14'],
  reportMark: ['c4ca4238a0b923820dcc509a6f75849b'],
  reportLeadFacts: ['lead_01JA0000000000000000000000'],
  reportRebuild: ['rebuild_01JA0000000000000000000000'],
  activeReportRebuild: [],
});
