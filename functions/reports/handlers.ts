import { apiHandler } from '#shared/http/api-handler';
import { funnelOf } from './funnel';
import { readReportDays } from './read-store';
import * as routes from './routes';
import { summaryOf } from './summary';
import { timeseriesOf } from './timeseries';
import { getReportRebuild } from './rebuild-jobs';
import { startReportRebuild } from './rebuild-start';

/** The handlers of the reports' routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const getReportSummaryHandler = apiHandler(routes.getReportSummary, async ({ query, organizationId }) => ({ summary: summaryOf(await readReportDays(organizationId, query)) }));

export const getReportTimeseriesHandler = apiHandler(routes.getReportTimeseries, async ({ query, organizationId }) => ({
  timeseries: timeseriesOf(await readReportDays(organizationId, query), query.metric, query.interval),
}));

export const getReportFunnelHandler = apiHandler(routes.getReportFunnel, async ({ query, organizationId }) => ({ funnel: funnelOf(await readReportDays(organizationId, query)) }));

export const startReportRebuildHandler = apiHandler(routes.startReportRebuild, async ({ organizationId }) => ({ rebuild: await startReportRebuild(organizationId) }));

export const getReportRebuildHandler = apiHandler(routes.getReportRebuild, async ({ path, organizationId }) => ({ rebuild: await getReportRebuild(organizationId, path.rebuildId) }));
