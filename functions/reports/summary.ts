import { LEAD_STATUSES, LOST_REASONS } from '../leads/attributes';
import { INQUIRY_SOURCES, INQUIRY_TAGS } from '../inquiries/kinds';
import { measuredLeads, metricValue, ratio, sumDays, within5Minutes, type Totals } from './figures';
import type { ReportDays } from './read-store';
import type { ReportSummary } from './schema';

/** The figures of a group of the summary, each named as the metric `<prefix>.<name>` is: the timeseries answers the same per point. */
function group<N extends string>(totals: Totals, prefix: string, names: readonly N[]): Record<N, number> {
  return Object.fromEntries(names.map((name) => [name, metricValue(`${prefix}.${name}`, totals)])) as Record<N, number>;
}

/** A figure that is never null: a count or an amount. */
const figure = (totals: Totals, metric: string) => metricValue(metric, totals) as number;

/** The summary of the range: every day's counters summed, then each figure read or computed from the sums. */
export function summaryOf({ timezone, currency, range, days, asOf }: ReportDays): ReportSummary {
  const totals = sumDays([...days.values()]);
  const inquiries = group(totals, 'inquiries.bySource', INQUIRY_SOURCES);
  const measured = measuredLeads(totals);
  const fastest = within5Minutes(totals);
  return {
    ...range,
    timezone,
    currency,
    asOf,
    leads: {
      created: figure(totals, 'leads.created'),
      bySource: group(totals, 'leads.bySource', [...INQUIRY_SOURCES, 'NONE'] as const),
      byStatus: group(totals, 'leads.byStatus', LEAD_STATUSES),
      pipelineValue: group(totals, 'leads.pipelineValue', LEAD_STATUSES),
      won: { count: figure(totals, 'leads.won'), value: figure(totals, 'leads.wonValue') },
      lost: { count: figure(totals, 'leads.lost'), reasons: group(totals, 'leads.lostReasons', LOST_REASONS) },
      conversion: metricValue('leads.conversion', totals),
    },
    inquiries: {
      total: Object.values(inquiries).reduce((sum, count) => sum + count, 0),
      bySource: inquiries,
      byTag: group(totals, 'inquiries.byTag', INQUIRY_TAGS),
      startedByLead: { total: figure(totals, 'inquiries.startedByLead.total'), bySource: group(totals, 'inquiries.startedByLead.bySource', INQUIRY_SOURCES) },
      startedByBusiness: {
        total: figure(totals, 'inquiries.startedByBusiness.total'),
        bySource: group(totals, 'inquiries.startedByBusiness.bySource', INQUIRY_SOURCES),
        byAutomation: figure(totals, 'inquiries.startedByBusiness.byAutomation'),
      },
    },
    calls: { ...group(totals, 'calls', ['taken', 'missed', 'afterHours', 'transferred']), averageDurationSeconds: metricValue('calls.averageDurationSeconds', totals) },
    speedToLead: {
      leads: measured,
      medianSeconds: metricValue('speedToLead.medianSeconds', totals),
      p90Seconds: metricValue('speedToLead.p90Seconds', totals),
      within5Minutes: { count: fastest, share: ratio(fastest, measured) },
    },
    appointments: group(totals, 'appointments', ['booked', 'bookedFromCalls', 'cancelled', 'completed', 'noShows']),
    sms: group(totals, 'sms', ['sent', 'delivered', 'failed', 'received', 'optOuts']),
    automations: group(totals, 'automations', ['started', 'completed', 'stoppedByReply']),
  };
}
