import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { MAX_BODY_BYTES } from '#shared/http/middleware';
import { errorEnvelope } from '#shared/http/envelope';
import { GATEWAY_RESPONSES, gatewayResponseBody } from '#shared/http/gateway-responses';
import { PayloadTooLargeError } from '#shared/errors';
import { MAX_CALL_PLATFORM_BYTES } from '../../functions/inbound-endpoints/schema';
import { OAUTH_PATHS } from '../../functions/oauth/metadata';
import { ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '#shared/http/caller-address';
import { authorizerOf, type RouteDefinition } from '#shared/routes/route';
import type { OriginSecrets } from './console-site';

/**
 * A regular expression matching exactly the decimal numbers greater than `limit` (leading zeros allowed): AWS WAF
 * compares a header as text, never as a number. Longer than the limit with no leading zero, or as long with a higher
 * digit after an equal prefix.
 */
export function greaterThanPattern(limit: number): string {
  const digits = String(limit);
  const alternatives = [`[1-9]\\d{${digits.length},}`];
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[i]);
    if (digit === 9) continue;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}[${digit + 1}-9]${rest ? `\\d{${rest}}` : ''}`);
  }
  return `^0*(?:${alternatives.join('|')})$`;
}

/** The paths (with or without the stage in front, as a custom domain leaves it) of the one route taking more than MAX_BODY_BYTES. */
const inboundPath = (stageName: string) => `^(?:/${stageName})?/v1/inbound/[^/]+$`;

/**
 * The common rule set's rules that refuse a URL whose host is an IPv4 address in a query argument or the body (remote
 * file inclusion), and the labels they leave when they only count. OAuth's endpoints take such a URL by design: a CLI
 * client's loopback redirect URI (`redirect_uri=http://127.0.0.1:33418/callback`, RFC 8252) in the authorization
 * request's query, the consent post's and token request's forms and a registration's `redirect_uris`.
 */
export const IPV4_URL_RULES = [
  { name: 'GenericRFI_QUERYARGUMENTS', label: 'awswaf:managed:aws:core-rule-set:GenericRFI_QueryArguments' },
  { name: 'GenericRFI_BODY', label: 'awswaf:managed:aws:core-rule-set:GenericRFI_Body' },
] as const;

const escaped = (path: string) => path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** OAuth's endpoints, with or without the stage in front: the only paths where those rules only count. */
export const oauthEndpointsPath = (stageName: string) =>
  `^(?:/${stageName})?(?:${[OAUTH_PATHS.authorize, OAUTH_PATHS.token, OAUTH_PATHS.register].map(escaped).join('|')})$`;

/**
 * The paths (with or without the stage in front) of the routes no credential opens that have a throttle of their own,
 * each path parameter one segment: the ones one source could spend for everyone.
 */
export const anonymousThrottledPath = (stageName: string, routes: readonly RouteDefinition[]) => {
  const paths = [...new Set(routes.filter((route) => route.throttle && authorizerOf(route) === undefined).map((route) => route.path))];
  return `^(?:/${stageName})?(?:${paths.map((path) => path.split(/\{\w+\}/).map(escaped).join('[^/]+')).join('|')})$`;
};

const INBOUND_RATE_BODY_KEY = 'inbound-rate-limited';
/** WAF blocks a source until its count over the last 5 minutes falls below the limit: a minute is a fair wait to suggest. */
export const INBOUND_RETRY_AFTER_SECONDS = 60;

/**
 * AWS WAF in front of the stage: AWS's common rule set, bodies over what the API takes refused by their
 * Content-Length, a per-IP rate limit (requests per 5 minutes), and a lower one of posts to the public inbound URLs.
 *
 * The common rule set's SizeRestrictions_BODY blocks any body over 8 KB, where the API takes 256 KB (MAX_BODY_BYTES)
 * and the inbound route a voice platform's 3 MB call report: it only counts here. In its place, a request whose
 * Content-Length says more than the route takes is blocked before it reaches a function; the functions still answer
 * 413 to a body without one (chunked), as they do without the firewall. Its remote file inclusion rules would refuse
 * a CLI client's loopback redirect URI on OAuth's endpoints: they count there, and block everywhere else.
 */
export class Firewall extends Construct {
  readonly acl: CfnWebACL;

  /**
   * `stageName` as written, not the stage's token: it goes into a regular expression. With `originSecrets` (the
   * console's distribution in front), a request without the origin secret is refused first, and every rate counts the
   * viewer's address the distribution wrote.
   */
  constructor(
    scope: Construct,
    id: string,
    { stage, stageName, routes, ratePerIp, inboundRatePerIp, anonymousRatePerIp, originSecrets }: { stage: Stage; stageName: string; routes: readonly RouteDefinition[]; ratePerIp: number; inboundRatePerIp: number; anonymousRatePerIp: number; originSecrets?: OriginSecrets },
  ) {
    super(scope, id);
    const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, sampledRequestsEnabled: true, metricName });
    // Behind the distribution, API Gateway sees CloudFront's address: the viewer's is the header the distribution wrote
    // (its viewer-request function replaces any the client sent, and a request that did not come through it is refused).
    const perSource = originSecrets
      ? { aggregateKeyType: 'FORWARDED_IP', forwardedIpConfig: { headerName: VIEWER_ADDRESS_HEADER, fallbackBehavior: 'MATCH' } }
      : { aggregateKeyType: 'IP' };
    const carriesSecret = (secret: OriginSecrets['current']) => ({
      byteMatchStatement: { fieldToMatch: { singleHeader: { Name: ORIGIN_SECRET_HEADER } }, positionalConstraint: 'EXACTLY', searchString: secret.secretValue.unsafeUnwrap(), textTransformations: [{ priority: 0, type: 'NONE' }] },
    });
    const originRule = originSecrets
      ? [
          {
            // The one way in: the API's own (execute-api) URL answers only what the distribution sent, so no caller goes
            // around the edge's counting. Refused as the gateway's WAF_FILTERED answer says.
            name: 'OriginSecretMissing',
            action: { block: {} },
            statement: { notStatement: { statement: { orStatement: { statements: [carriesSecret(originSecrets.current), carriesSecret(originSecrets.previous)] } } } },
            visibilityConfig: visibility('origin-secret-missing'),
          },
        ]
      : [];
    const contentLengthOver = (limit: number) => ({
      regexMatchStatement: { fieldToMatch: { singleHeader: { Name: 'content-length' } }, regexString: greaterThanPattern(limit), textTransformations: [{ priority: 0, type: 'NONE' }] },
    });
    const inbound = { regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString: inboundPath(stageName), textTransformations: [{ priority: 0, type: 'NONE' }] } };
    // Blocked with the 413 envelope the functions answer, not WAF's bare 403.
    const bodyKey = (limit: number) => `payload-too-large-${limit}`;
    const tooLarge = (limit: number) => ({ block: { customResponse: { responseCode: 413, customResponseBodyKey: bodyKey(limit), responseHeaders: [{ name: 'Cache-Control', value: 'no-store' }] } } });
    this.acl = new CfnWebACL(this, 'Acl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: Object.fromEntries([
        ...[MAX_BODY_BYTES, MAX_CALL_PLATFORM_BYTES].map((limit) => {
          const { message, code } = new PayloadTooLargeError(limit);
          return [bodyKey(limit), { contentType: 'APPLICATION_JSON', content: JSON.stringify(errorEnvelope(413, message, code)) }];
        }),
        [INBOUND_RATE_BODY_KEY, { contentType: 'APPLICATION_JSON', content: JSON.stringify(gatewayResponseBody(GATEWAY_RESPONSES.THROTTLED)) }],
      ]),
      visibilityConfig: visibility('sales-pipeline-waf'),
      // In this order: each rule's priority is its place.
      rules: [
        ...originRule,
        {
          name: 'AWSManagedRulesCommonRuleSet',
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }, ...IPV4_URL_RULES.map(({ name }) => ({ name, actionToUse: { count: {} } }))],
            },
          },
          visibilityConfig: visibility('common-rule-set'),
        },
        {
          name: 'BodyOverLimit',
          action: tooLarge(MAX_BODY_BYTES),
          statement: { andStatement: { statements: [contentLengthOver(MAX_BODY_BYTES), { notStatement: { statement: inbound } }] } },
          visibilityConfig: visibility('body-over-limit'),
        },
        {
          name: 'InboundBodyOverLimit',
          action: tooLarge(MAX_CALL_PLATFORM_BYTES),
          statement: contentLengthOver(MAX_CALL_PLATFORM_BYTES),
          visibilityConfig: visibility('inbound-body-over-limit'),
        },
        {
          name: 'RatePerIp',
          action: { block: {} },
          statement: { rateBasedStatement: { limit: ratePerIp, ...perSource } },
          visibilityConfig: visibility('rate-per-ip'),
        },
        {
          // The public inbound URLs on their own, at a lower rate: a source posting to many unknown ids is stopped here,
          // before each costs the inbound authorizer a read, and its posts to real ones before they spend the
          // organization's inbound quota. Answered as the gateway's throttle is, 429 RATE_LIMITED with Retry-After.
          name: 'InboundRatePerIp',
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: INBOUND_RATE_BODY_KEY, responseHeaders: [{ name: 'Cache-Control', value: 'no-store' }, { name: 'Retry-After', value: String(INBOUND_RETRY_AFTER_SECONDS) }] } } },
          statement: { rateBasedStatement: { limit: inboundRatePerIp, ...perSource, scopeDownStatement: inbound } },
          visibilityConfig: visibility('inbound-rate-per-ip'),
        },
        {
          // The anonymous routes with a throttle of their own (sign-in, OAuth's registration, consent and token), which
          // all their callers share: one source is stopped here, well below the throttle, before it can spend everyone's.
          // Their functions' own per-source limits stay as the second wall.
          name: 'AnonymousRatePerIp',
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: INBOUND_RATE_BODY_KEY, responseHeaders: [{ name: 'Cache-Control', value: 'no-store' }, { name: 'Retry-After', value: String(INBOUND_RETRY_AFTER_SECONDS) }] } } },
          statement: { rateBasedStatement: { limit: anonymousRatePerIp, ...perSource, scopeDownStatement: { regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString: anonymousThrottledPath(stageName, routes), textTransformations: [{ priority: 0, type: 'NONE' }] } } } },
          visibilityConfig: visibility('anonymous-rate-per-ip'),
        },
        {
          // The remote file inclusion rules, counted in the group, block as before on every path but OAuth's.
          name: 'IPv4UrlOutsideOAuth',
          action: { block: {} },
          statement: {
            andStatement: {
              statements: [
                { orStatement: { statements: IPV4_URL_RULES.map(({ label }) => ({ labelMatchStatement: { scope: 'LABEL', key: label } })) } },
                { notStatement: { statement: { regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString: oauthEndpointsPath(stageName), textTransformations: [{ priority: 0, type: 'NONE' }] } } } },
              ],
            },
          },
          visibilityConfig: visibility('ipv4-url-outside-oauth'),
        },
      ].map((rule, priority) => ({ ...rule, priority })),
    });
    new CfnWebACLAssociation(this, 'Association', { resourceArn: stage.stageArn, webAclArn: this.acl.attrArn });
  }
}
