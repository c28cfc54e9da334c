import {
  ConflictException,
  CreateApiKeyCommand,
  CreateUsagePlanKeyCommand,
  DeleteUsagePlanKeyCommand,
  GetApiKeysCommand,
  NotFoundException,
  paginateGetUsagePlans,
  type APIGatewayClient,
  type UsagePlan,
} from '@aws-sdk/client-api-gateway';
import { inboundUsageIdentifierKey, usageIdentifierKey, type Meter, type UsagePlanName } from '#shared/auth/usage-plans';

/** The usage plans the stack made for this API (`<stack>-<plan>` and `<stack>-inbound-<plan>`, one per row of METERED_PLANS). */
async function usagePlansOf(client: APIGatewayClient, restApiId: string): Promise<UsagePlan[]> {
  const plans: UsagePlan[] = [];
  for await (const page of paginateGetUsagePlans({ client }, {})) {
    plans.push(...(page.items ?? []).filter((plan) => plan.apiStages?.some((stage) => stage.apiId === restApiId)));
  }
  return plans;
}

/** What a usage plan of the stack meters, by its name (infra/cdk/api/stage-access.ts, usagePlanName). */
const meterOf = (plan: UsagePlan): Meter => (/-inbound-[^-]+$/.test(plan.name ?? '') ? 'inbound' : 'api');

/** The organization's API Gateway key for `meter`, named and valued as the usage identifier its authorizer returns. */
async function organizationApiKeyId(client: APIGatewayClient, organizationId: string, meter: Meter): Promise<string> {
  const value = meter === 'inbound' ? inboundUsageIdentifierKey(organizationId) : usageIdentifierKey(organizationId);
  const { items } = await client.send(new GetApiKeysCommand({ nameQuery: value, includeValues: false }));
  const existing = items?.find((key) => key.name === value)?.id;
  if (existing) return existing;
  const created = await client.send(
    new CreateApiKeyCommand({
      name: value,
      value,
      enabled: true,
      description:
        meter === 'inbound'
          ? "Meters the organization's inbound URLs' posts against its inbound plan; no one sends it (the inbound authorizer supplies it)."
          : 'Meters the organization against its usage plan; callers never send it (the authorizer supplies it).',
    }),
  );
  return created.id!;
}

/**
 * Puts the organization's two API Gateway keys in the plans named `plan` of the API, its API keys' (`<stack>-<plan>`)
 * and its inbound URLs' (`<stack>-inbound-<plan>`), and out of the other plans of each, so API Gateway throttles and
 * meters each by its own. Safe to repeat.
 */
export async function assignUsagePlan(client: APIGatewayClient, { restApiId, organizationId, plan }: { restApiId: string; organizationId: string; plan: UsagePlanName }) {
  const plans = await usagePlansOf(client, restApiId);
  const assigned: Record<string, string> = {};
  for (const meter of ['api', 'inbound'] as const) {
    const ofMeter = plans.filter((candidate) => meterOf(candidate) === meter);
    const target = ofMeter.find((candidate) => candidate.name?.endsWith(`-${plan}`));
    const named = meter === 'inbound' ? `inbound usage plan "${plan}"` : `usage plan "${plan}"`;
    if (!target?.id) throw new Error(`API ${restApiId} has no ${named}; is --api the stack's RestApiId output?`);
    const keyId = await organizationApiKeyId(client, organizationId, meter);
    for (const other of ofMeter) {
      if (other.id === target.id) continue;
      await client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: other.id, keyId })).catch((error: unknown) => {
        if (!(error instanceof NotFoundException)) throw error;
      });
    }
    await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: target.id, keyId, keyType: 'API_KEY' })).catch((error: unknown) => {
      if (!(error instanceof ConflictException)) throw error;
    });
    Object.assign(assigned, meter === 'inbound' ? { inboundUsagePlanId: target.id, inboundApiKeyId: keyId } : { usagePlanId: target.id, apiKeyId: keyId });
  }
  return assigned;
}
