import { defineResource } from '#shared/resource';
import { reportKeys, reportKeySamples } from './entity';
import { reportFunnel, reportSummary, reportTimeseries } from './examples';
import { reportRoutes } from './routes';
import { ReportFunnel, ReportSummary, ReportTimeseries } from './schema';

/**
 * The pipeline in numbers: counters per organization per local day, kept from the table's stream, read by three
 * reports in one Query each.
 */
export const reports = defineResource({
  name: 'reports',
  tags: { Reports: 'The pipeline in numbers over a range of days: what came in, how fast it was answered, what was booked, won and lost.' },
  routes: reportRoutes,
  components: {
    ReportSummary: { schema: ReportSummary, example: reportSummary },
    ReportTimeseries: { schema: ReportTimeseries, example: reportTimeseries },
    ReportFunnel: { schema: ReportFunnel, example: reportFunnel },
  },
  keys: [{ builders: reportKeys, samples: reportKeySamples }],
});
