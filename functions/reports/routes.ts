import type * as v from 'valibot';
import { defineRoute, type RouteDefinition } from '#shared/routes/route';
import { EARLIEST_REPORT_DATE, MAX_RANGE_DAYS } from './range';
import { ReportFunnelResponse, ReportRangeQuery, ReportSummaryResponse, ReportTimeseriesQuery, ReportTimeseriesResponse } from './schema';
import { prose } from '#shared/prose';
import { notQueued } from '#shared/schema';
import { RebuildIdPath, ReportRebuildResponse } from './rebuild-schema';
import { reportRebuildQueueSender } from './rebuild-queue';

/** What every report says of its range and its cost: the same counters, read the same way. */
const READ = prose`
  \`from\` and \`to\` are the organization’s local dates (YYYY-MM-DD in its \`timezone\`), both included, at most
  ${MAX_RANGE_DAYS} days; by default the 30 days ending today there. The figures are kept per local day by the table’s
  change stream, a moment behind each write, so a read costs the organization’s item and one Query of at most
  ${MAX_RANGE_DAYS} small items (more pages past 1 MB), however many records the days hold. A date the calendar has not
  (2026-02-30), one before ${EARLIEST_REPORT_DATE}, \`from\` after \`to\`, or more than ${MAX_RANGE_DAYS} days answer
  400 naming the parameter.
`;

/**
 * A report, `GET /v1/reports/<name>` (`getReport<Name>`): a read of the organization's counters over a range of days,
 * nothing else read, nothing written.
 */
const report = <Q extends v.GenericSchema, S extends v.GenericSchema>(name: string, query: Q, response: S, words: Pick<RouteDefinition, 'summary' | 'description'>) =>
  defineRoute({ operationId: `getReport${name[0]!.toUpperCase()}${name.slice(1)}`, method: 'GET', path: `/v1/reports/${name}`, ...words, tag: 'Reports', dynamodb: ['GetItem', 'Query'], status: 200, request: { query }, response, errors: [400] });

export const getReportSummary = report('summary', ReportRangeQuery, ReportSummaryResponse, {
  summary: 'The pipeline in numbers over a range of days',
  description: prose`
    Leads created (by the source of their first inquiry, by status now, their value), won and lost (with reasons) and
    the conversion; inquiries by source and tag, and apart by who started them (the lead, or the organization: a
    member’s or an automation’s text opening a thread, its agent’s call); calls taken, missed, after hours and
    transferred; speed to lead from the first inquiry the lead started, to the second (median, p90, within 5 minutes);
    appointments booked, cancelled (on the day of the cancellation), completed and no-shows; SMS sent, delivered,
    failed, received and opt-outs; automation runs. Amounts are in the organization’s \`currency\`. ${READ}
  `,
});

export const getReportTimeseries = report('timeseries', ReportTimeseriesQuery, ReportTimeseriesResponse, {
  summary: 'One figure of the reports per day, week or month',
  description: prose`
    The \`metric\` named (any count or sum of the summary, or a figure computed from them) per calendar day, week
    (starting on Monday) or month: a point for each that has a day in the range, the first starting on its calendar
    start (which may be before \`from\`), each over the days of the range it holds; a ratio is computed from the point’s
    own sums. An unknown \`metric\` or \`interval\` answers 400. ${READ}
  `,
});

export const getReportFunnel = report('funnel', ReportRangeQuery, ReportFunnelResponse, {
  summary: 'How far the leads created over a range of days went',
  description: prose`
    NEW → CONTACTED → QUALIFIED → QUOTED → WON: of the leads created on the days of the range, how many reached each
    status (at any time, so a lead now LOST counts for the statuses it went through), and the share of those that
    reached the next; \`lost\`: those that are LOST now. ${READ}
  `,
});

export const startReportRebuild = defineRoute({
  operationId: 'startReportRebuild',
  method: 'POST',
  path: '/v1/reports/rebuilds',
  summary: 'Count the reports again from the records',
  description: prose`
    Starts a recount of the organization’s reports from its records, for figures that look wrong: every lead,
    inquiry, SMS, appointment and automation run is counted again, and each day’s counters and each lead’s counted
    history that differ are rewritten (what was right is left alone). It runs in the background: the answer is 202 with
    the recount QUEUED; read it back with \`GET /v1/reports/rebuilds/{rebuildId}\` to follow its \`progress\`. One
    recount at a time: another under way answers 409 REBUILD_RUNNING naming it. It reads every record of the
    organization, minutes for a large one: start it when the figures need it, not on a schedule.
  `,
  tag: 'Reports',
  // The recount's item and the organization's one place in one transaction (a 409 reads which recount holds it).
  dynamodb: ['PutItem', 'GetItem', 'UpdateItem', 'DeleteItem'],
  capabilities: [reportRebuildQueueSender],
  status: 202,
  request: {},
  response: ReportRebuildResponse,
  errors: [409],
  responses: {
    409: { description: 'REBUILD_RUNNING: a recount is under way; its id is in the message.' },
    503: notQueued('recount'),
  },
});

export const getReportRebuild = defineRoute({
  operationId: 'getReportRebuild',
  method: 'GET',
  path: '/v1/reports/rebuilds/{rebuildId}',
  summary: 'Follow a recount of the reports',
  description: prose`
    A recount started with \`POST /v1/reports/rebuilds\`: its \`status\`, its \`progress\` (writes made of those to make,
    known once the records are counted), and when it SUCCEEDED what it changed. Kept 30 days. Another
    organization’s, or an unknown id, answers 404.
  `,
  tag: 'Reports',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: RebuildIdPath },
  response: ReportRebuildResponse,
  errors: [400, 404],
});

export const reportRoutes = [getReportSummary, getReportTimeseries, getReportFunnel, startReportRebuild, getReportRebuild];
