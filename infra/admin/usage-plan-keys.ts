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
import { usageIdentifierKey, type UsagePlanName } from '#shared/auth/usage-plans';

/** The usage plans the stack made for this API (named `<stack>-<plan>`, one per row of USAGE_PLANS). */
async function usagePlansOf(client: APIGatewayClient, restApiId: string): Promise<UsagePlan[]> {
  const plans: UsagePlan[] = [];
  for await (const page of paginateGetUsagePlans({ client }, {})) {
    plans.push(...(page.items ?? []).filter((plan) => plan.apiStages?.some((stage) => stage.apiId === restApiId)));
  }
  return plans;
}

/** The organization's API Gateway key, whose value is what the authorizer returns as usageIdentifierKey. */
async function organizationApiKeyId(client: APIGatewayClient, organizationId: string): Promise<string> {
  const { items } = await client.send(new GetApiKeysCommand({ nameQuery: organizationId, includeValues: false }));
  const existing = items?.find((key) => key.name === organizationId)?.id;
  if (existing) return existing;
  const created = await client.send(
    new CreateApiKeyCommand({
      name: organizationId,
      value: usageIdentifierKey(organizationId),
      enabled: true,
      description: 'Meters the organization against its usage plan; callers never send it (the authorizer supplies it).',
    }),
  );
  return created.id!;
}

/**
 * Puts the organization's API Gateway key in `plan`'s usage plan of the API and out of the others,
 * so API Gateway throttles and meters it by that plan. Safe to repeat.
 */
export async function assignUsagePlan(client: APIGatewayClient, { restApiId, organizationId, plan }: { restApiId: string; organizationId: string; plan: UsagePlanName }) {
  const plans = await usagePlansOf(client, restApiId);
  const target = plans.find((candidate) => candidate.name?.endsWith(`-${plan}`));
  if (!target?.id) throw new Error(`API ${restApiId} has no usage plan "${plan}"; is --api the stack's RestApiId output?`);
  const keyId = await organizationApiKeyId(client, organizationId);
  for (const other of plans) {
    if (other.id === target.id) continue;
    await client.send(new DeleteUsagePlanKeyCommand({ usagePlanId: other.id, keyId })).catch((error: unknown) => {
      if (!(error instanceof NotFoundException)) throw error;
    });
  }
  await client.send(new CreateUsagePlanKeyCommand({ usagePlanId: target.id, keyId, keyType: 'API_KEY' })).catch((error: unknown) => {
    if (!(error instanceof ConflictException)) throw error;
  });
  return { usagePlanId: target.id, apiKeyId: keyId };
}
