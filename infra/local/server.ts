import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { USAGE_PLANS } from '../../shared/auth/usage-plans';
import { getOrganizationUsagePlan } from '../../shared/repositories/organizations';
import { routes } from '../../shared/routes/index';
import { createLocalGateway, type LocalGatewayOptions } from './gateway';
import { loadAuthorizer, loadHandler } from './handlers';
import { createUsagePlanMeter } from './rate-limiter';

// The authorizer's usage identifier is the organization id (usageIdentifierKey), so it finds the organization's plan.
const planOf = async (usageIdentifierKey: string) => USAGE_PLANS[await getOrganizationUsagePlan(usageIdentifierKey)];

/** The local API: the route table behind a plain HTTP server. Needs TABLE_NAME and the DynamoDB endpoint in the environment. */
export async function startLocalServer(
  port: number,
  { aroundInvoke }: Pick<LocalGatewayOptions, 'aroundInvoke'> = {},
): Promise<{ server: Server; url: string }> {
  const server = createServer(createLocalGateway({ routes, loadHandler, loadAuthorizer, aroundInvoke, meter: createUsagePlanMeter(planOf) }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, url: `http://localhost:${bound}` };
}
