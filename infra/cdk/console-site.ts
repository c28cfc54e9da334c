import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Duration, NestedStack, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { AaaaRecord, ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { DockerImage } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { ORIGIN_SECRET_HEADER } from '#shared/http/caller-address';
import type { Construct } from 'constructs';
import { CONSOLE_PATH, CONSOLE_SECURITY_HEADERS } from '../../functions/sign-in/site';
import { UNHASHED_FILES } from '../console/installable';
import { STAGE_NAME } from './api/rest-api';
import type { DeploymentOptions } from './options';

const APP_DIR = fileURLToPath(new URL('../../console', import.meta.url));
const BUILD_SCRIPT = fileURLToPath(new URL('./console-build.ts', import.meta.url));
const VIEWER_REQUEST_FUNCTION = fileURLToPath(new URL('../../functions/sign-in/edge/viewer-request.js', import.meta.url));
/** The bucket's prefix the files are under, as the distribution asks for them: the path they are served at. */
const PREFIX = CONSOLE_PATH.slice(1);

/** What cdk-nag finds in CDK's BucketDeployment function, the stack's only function, which copies the files at deploy. */
export const BUCKET_DEPLOYMENT_FINDINGS: Readonly<Record<string, string>> = {
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]': 'The BucketDeployment function of CDK, run at deploy time only: its logs, by the basic execution role.',
  'AwsSolutions-IAM5[Action::s3:Abort*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-IAM5[Action::s3:DeleteObject*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-IAM5[Action::s3:GetBucket*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-IAM5[Action::s3:GetObject*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-IAM5[Action::s3:List*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-IAM5[Resource::<referencetoSalesPipelineApiConsoleFiles8806AF5FArn>/*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]': 'The BucketDeployment function of CDK copies the console’s files from CDK’s asset bucket into the console’s bucket: CDK’s own grant.',
  'AwsSolutions-L1': 'The BucketDeployment function of CDK, whose runtime CDK chooses: run at deploy time only.',
};

/**
 * The console's files, built at synthesis by the console's own build (esbuild, as `npm start` builds it), in a private
 * bucket of the distribution's own stack, which only that distribution reads (origin access control, on condition of
 * its ARN: S3BucketOrigin writes the statement). The bucket is referenced, never named: no other stack or account can
 * take its name while the distribution serves it. It goes with the stack: its files are deleted with their deployment
 * (`retainOnDelete: false`), as they are made again by every deploy.
 */
function consoleFiles(stack: Stack): Bucket {
  const bucket = new Bucket(stack, 'ConsoleFiles', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'The console’s built files, the same for every visitor and served only through CloudFront: no access to log that the distribution does not see.' });
  const built = Source.asset(APP_DIR, {
    // The console's own installs (its workspace's tools) are not its files.
    exclude: ['node_modules'],
    bundling: {
      // The build runs here, with the project's own esbuild; the image is only what CDK asks for when it cannot.
      image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:24'),
      local: {
        tryBundle(outputDir) {
          execFileSync(process.execPath, ['--import', 'tsx', BUILD_SCRIPT, outputDir], { stdio: 'inherit' });
          return true;
        },
      },
    },
  });
  // Hashed assets are cached for ever; the page, the manifest and the service worker are asked for again at each load,
  // so a deploy is seen at once.
  // The copy is CDK's own function, in a nested stack of its own: the API stack's functions are the API's alone.
  const copying = new NestedStack(stack, 'ConsoleFilesCopy', { description: 'Copies the console’s built files into their bucket at each deploy (CDK’s BucketDeployment)' });
  const copy = { sources: [built], destinationBucket: bucket, destinationKeyPrefix: PREFIX, retainOnDelete: false };
  const assets = new BucketDeployment(copying, 'ConsoleFilesAssets', { ...copy, exclude: [...UNHASHED_FILES], cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')] });
  new BucketDeployment(copying, 'ConsoleFilesPage', { ...copy, exclude: ['*'], include: [...UNHASHED_FILES], prune: false, cacheControl: [CacheControl.noCache()] });
  // The copy into the bucket is CDK's own function (a singleton of its stack, its role's scope), run at deploy time
  // only: its findings are acknowledged on it alone.
  for (const [id, reason] of Object.entries(BUCKET_DEPLOYMENT_FINDINGS)) Validations.of(assets.handlerRole.node.scope!).acknowledge({ id, reason });
  return bucket;
}

/** What cdk-nag finds in the console's distribution, each left as it is for the reason given. */
export const CONSOLE_DISTRIBUTION_FINDINGS: Readonly<Record<string, string>> = {
  'AwsSolutions-CFR1': 'The console serves an organization’s members wherever they are: no country is refused.',
  'AwsSolutions-CFR2': 'The API behind it has its own WAF web ACL (on unless -c waf=false), counting each viewer by the address this distribution writes; the console’s files are static.',
  'AwsSolutions-CFR3': 'The API’s stage logs every request (its access log); the console’s files are the same static files for every visitor.',
  'AwsSolutions-CFR4': 'The distribution’s own cloudfront.net domain takes CloudFront’s default certificate, whose TLS policy cannot be set.',
};

/** The finding a custom domain clears: its certificate takes TLS 1.2 at least. */
const DEFAULT_CERTIFICATE_FINDING = 'AwsSolutions-CFR4';

/** CloudFront takes certificates from ACM in us-east-1 alone, wherever the stack is. */
const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

type CustomDomain = NonNullable<DeploymentOptions['customDomain']>;

/**
 * The custom domain on the distribution, so the console, its passkeys and the API (which names this domain in its
 * answers) share one origin: the certificate (refused unless in us-east-1), TLS 1.2 at least, and alias records.
 */
function onCustomDomain(stack: Stack, { domainName, certificateArn }: CustomDomain) {
  const region = certificateArn.split(':')[3];
  if (region !== CLOUDFRONT_CERTIFICATE_REGION) {
    throw new Error(`customDomain: the console and the API share the domain on CloudFront, which takes a certificate from ACM in ${CLOUDFRONT_CERTIFICATE_REGION} only; certificateArn is in ${region || 'no region'}`);
  }
  return { domainNames: [domainName], certificate: Certificate.fromCertificateArn(stack, 'ConsoleCertificate', certificateArn), minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021 };
}

/** The domain's A and AAAA records, aliases of the distribution, and the URL to give integrators and members. */
function pointDomainAt(stack: Stack, distribution: Distribution, { domainName, hostedZoneId, hostedZoneName }: CustomDomain): void {
  const zone = HostedZone.fromHostedZoneAttributes(stack, 'Zone', { hostedZoneId, zoneName: hostedZoneName });
  const target = RecordTarget.fromAlias(new CloudFrontTarget(distribution));
  new ARecord(stack, 'DomainRecord', { zone, recordName: domainName, target });
  new AaaaRecord(stack, 'DomainRecordIpv6', { zone, recordName: domainName, target });
}

/**
 * The origin secret the distribution adds to every request it sends the API, and the firewall asks of each
 * (firewall.ts): its current value and the one before, both generated by Secrets Manager and named in the templates
 * only by dynamic reference. To rotate: copy the current value into the previous secret, put a new current value, and
 * deploy; the firewall takes both while the distribution's edges change over.
 */
export interface OriginSecrets {
  current: Secret;
  previous: Secret;
}

function originSecrets(stack: Stack): OriginSecrets {
  const secret = (id: string, description: string) => {
    const made = new Secret(stack, id, { description, generateSecretString: { excludePunctuation: true, passwordLength: 48 } });
    Validations.of(made).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Rotated by hand as docs/operations.md says: the distribution and the firewall take a new value at the next deploy, and the firewall takes the previous one meanwhile.' });
    return made;
  };
  return {
    current: secret('OriginSecret', 'The header value the console distribution adds to every request to the API; the firewall refuses requests without it'),
    previous: secret('OriginSecretPrevious', 'The origin secret before the last rotation, still taken by the firewall while the distribution changes over'),
  };
}

/**
 * The console and the API on one origin: CloudFront sends `/console*` to the console's files (any path of the app to
 * its page, by a function, never by an error page that would turn an API 401 or 404 into HTML) and everything else to
 * the API's stage (its REGIONAL endpoint), uncached, with every viewer header but Host and the origin secret. On every
 * API path the viewer-request function writes the viewer's address, and on `/v1/*` makes the session cookie the bearer
 * token (the same function `npm start` runs, functions/sign-in/edge/viewer-request.js). Every answer carries HSTS.
 */
export function consoleDistribution(stack: Stack, api: RestApi, customDomain?: CustomDomain): { distribution: Distribution; originSecrets: OriginSecrets } {
  const secrets = originSecrets(stack);
  const apiOrigin = new HttpOrigin(`${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
    originPath: `/${STAGE_NAME}`,
    // A dynamic reference: CloudFormation reads the value at deploy, and the template holds only the secret's name.
    customHeaders: { [ORIGIN_SECRET_HEADER]: secrets.current.secretValue.unsafeUnwrap() },
  });
  const viewerRequest = new EdgeFunction(stack, 'ApiViewerRequest', { runtime: FunctionRuntime.JS_2_0, code: FunctionCode.fromFile({ filePath: VIEWER_REQUEST_FUNCTION }), comment: 'The viewer address, and the console session cookie as the bearer token' });
  const apiHeaders = new ResponseHeadersPolicy(stack, 'ApiHeaders', {
    comment: 'HSTS on the API answers served through the distribution',
    securityHeadersBehavior: { strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true } },
  });
  const toApi: BehaviorOptions = {
    origin: apiOrigin,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    responseHeadersPolicy: apiHeaders,
    functionAssociations: [{ function: viewerRequest, eventType: FunctionEventType.VIEWER_REQUEST }],
  };
  const appPage = new EdgeFunction(stack, 'ConsolePage', {
    runtime: FunctionRuntime.JS_2_0,
    // A path with no file extension is a screen of the app: its one page answers it.
    code: FunctionCode.fromInline(`function handler(event){var r=event.request;if(r.uri.split('/').pop().indexOf('.')<0)r.uri='${CONSOLE_PATH}/index.html';return r;}`),
    comment: 'Every path of the console to its page',
  });
  const headers = CONSOLE_SECURITY_HEADERS;
  const consoleHeaders = new ResponseHeadersPolicy(stack, 'ConsoleHeaders', {
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: headers['content-security-policy'], override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
    },
  });
  const files = consoleFiles(stack);
  const distribution = new Distribution(stack, 'Console', {
    comment: 'The owners’ console and the API, on one origin',
    ...(customDomain ? onCustomDomain(stack, customDomain) : {}),
    defaultBehavior: toApi,
    additionalBehaviors: {
      [`${CONSOLE_PATH}*`]: {
        origin: S3BucketOrigin.withOriginAccessControl(files),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: consoleHeaders,
        functionAssociations: [{ function: appPage, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
    },
  });
  for (const [id, reason] of Object.entries(CONSOLE_DISTRIBUTION_FINDINGS)) if (!customDomain || id !== DEFAULT_CERTIFICATE_FINDING) Validations.of(distribution).acknowledge({ id, reason });
  if (customDomain) pointDomainAt(stack, distribution, customDomain);
  return { distribution, originSecrets: secrets };
}
