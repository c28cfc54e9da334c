import { CfnOutput, type Stack } from 'aws-cdk-lib';
import { DomainName, EndpointType, Period, SecurityPolicy, type RestApi, type Stage } from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayDomain } from 'aws-cdk-lib/aws-route53-targets';
import { USAGE_PLANS } from '#shared/auth/usage-plans';
import type { DeploymentOptions } from '../options';

/** One usage plan per row of USAGE_PLANS; `npm run admin -- org plan` puts an organization's key in one. */
export function addUsagePlans(stack: Stack, api: RestApi, stage: Stage): void {
  for (const [name, plan] of Object.entries(USAGE_PLANS)) {
    const limited = Number.isFinite(plan.rateLimit);
    api.addUsagePlan(`UsagePlan-${name}`, {
      name: `${stack.stackName}-${name}`,
      description: limited ? `${plan.rateLimit} requests/s, bursts of ${plan.burstLimit}, ${plan.dailyQuota} requests per UTC day per organization` : 'No limit per organization beyond the stage throttle',
      apiStages: [{ api, stage }],
      ...(limited ? { throttle: { rateLimit: plan.rateLimit, burstLimit: plan.burstLimit }, quota: { limit: plan.dailyQuota, period: Period.DAY } } : {}),
    });
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
