import { CfnOutput, type Stack } from 'aws-cdk-lib';
import { DomainName, EndpointType, Period, SecurityPolicy, type RestApi, type Stage } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { METERED_PLANS, type Meter } from '#shared/auth/usage-plans';
import type { DeploymentOptions } from '../options';

/** The name of the stack's usage plan of `plan` for `meter`: `<stack>-<plan>` for API keys, `<stack>-inbound-<plan>` for inbound URLs. */
export const usagePlanName = (stackName: string, meter: Meter, plan: string) => `${stackName}-${meter === 'inbound' ? 'inbound-' : ''}${plan}`;

/**
 * One usage plan per row of USAGE_PLANS, and one per row of INBOUND_USAGE_PLANS (METERED_PLANS): `npm run admin -- org
 * plan` puts an organization's two keys in the plans of its plan's name, so its inbound posts are metered apart from
 * its API keys' requests.
 */
export function addUsagePlans(stack: Stack, api: RestApi, stage: Stage): void {
  for (const [meter, plans] of Object.entries(METERED_PLANS) as [Meter, (typeof METERED_PLANS)[Meter]][]) {
    const what = meter === 'inbound' ? 'inbound posts' : 'requests';
    for (const [name, plan] of Object.entries(plans)) {
      const limited = Number.isFinite(plan.rateLimit);
      api.addUsagePlan(meter === 'inbound' ? `UsagePlan-inbound-${name}` : `UsagePlan-${name}`, {
        name: usagePlanName(stack.stackName, meter, name),
        description: limited ? `${plan.rateLimit} ${what}/s, bursts of ${plan.burstLimit}, ${plan.dailyQuota} ${what} per UTC day per organization` : `No limit of ${what} per organization beyond the stage throttle`,
        apiStages: [{ api, stage }],
        ...(limited ? { throttle: { rateLimit: plan.rateLimit, burstLimit: plan.burstLimit }, quota: { limit: plan.dailyQuota, period: Period.DAY } } : {}),
      });
    }
  }
}

/** A stable URL for integrators: the domain maps to the stage, so a redeploy or a new API id changes nothing for them. */
export function addCustomDomain(stack: Stack, api: RestApi, stage: Stage, { domainName, certificateArn, hostedZoneId, hostedZoneName }: NonNullable<DeploymentOptions['customDomain']>): void {
  const domain = new DomainName(stack, 'Domain', {
    domainName,
    certificate: Certificate.fromCertificateArn(stack, 'Certificate', certificateArn),
    endpointType: EndpointType.REGIONAL,
    securityPolicy: SecurityPolicy.TLS_1_2,
  });
  domain.addBasePathMapping(api, { stage });
  const zone = HostedZone.fromHostedZoneAttributes(stack, 'Zone', { hostedZoneId, zoneName: hostedZoneName });
  new ARecord(stack, 'DomainRecord', { zone, recordName: domainName, target: RecordTarget.fromAlias(new ApiGatewayDomain(domain)) });
  new CfnOutput(stack, 'CustomDomainUrl', { value: `https://${domainName}/`, description: 'The URL to give integrators' });
}
