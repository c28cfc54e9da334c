import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { metrics } from '#shared/metrics';
import { logger, METRIC } from '#shared/observability';
import { actingFor, type TenantSession } from '#shared/tenancy/session';
import { EVERY_ORGANIZATION } from '#shared/tenancy/policies';
import { organizationKeys } from './entity';

/**
 * The isolation canary (docs/decisions/tenancy.md): every few minutes it signs a read of one organization's record
 * with another organization's session, as a keyed route would, and counts the refusal. Deployed, IAM refuses it with
 * the tenant-data role's policy; under `npm start`, the strict mode does. An answer, or a count that stops, pages.
 */
export const CANARY_ORGANIZATIONS = { signer: 'org_00000000000000CANARYSIGNER', target: 'org_00000000000000CANARYSIGNERX' } as const;

/**
 * The signer's session. Its session policy allows every organization's keys, unlike a route's (its own only): were it
 * the route's, it would refuse the read itself, and the canary would count a proof with the role's policy opened to
 * every organization. The target's id extends the signer's, so a pattern that lost its delimiter is caught too.
 */
export const CANARY_SESSION: TenantSession = { organizationId: CANARY_ORGANIZATIONS.signer, grantName: 'IsolationCanary', grant: { actions: ['GetItem'] }, sessionKeys: [EVERY_ORGANIZATION] };

/** Whether an error is IAM's refusal (AccessDeniedException; the strict mode's has the same name). */
const isAccessDenied = (error: unknown) => (error as Error | undefined)?.name === 'AccessDeniedException';

/** Reads the target's record as the signer. Anything but IAM's refusal is the canary failing: thrown. */
export async function proveIsolation(read = () => dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(CANARY_ORGANIZATIONS.target) }))): Promise<'denied'> {
  const answered = await actingFor(CANARY_SESSION, read).then(
    () => true,
    (error: unknown) => {
      if (isAccessDenied(error)) return false;
      throw error;
    },
  );
  if (answered) {
    logger.error("isolation canary: one organization's session read another's record; the tenant-data role's policy does not hold");
    throw new Error("One organization's session read another organization's record");
  }
  return 'denied';
}

/** The scheduled job: proves the wall, and counts the proof (IsolationProven) that the alarm expects every period. */
export async function handler(): Promise<void> {
  await proveIsolation();
  metrics.addMetric(METRIC.isolationProven, MetricUnit.Count, 1);
  metrics.publishStoredMetrics();
}
