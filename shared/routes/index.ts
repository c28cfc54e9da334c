import { appointmentRoutes } from './appointments';
import { companyRoutes } from './companies';
import { eventRoutes } from './events';
import { faqRoutes } from './faqs';
import { inboundEndpointRoutes } from './inbound-endpoints';
import { inquiryRoutes } from './inquiries';
import { leadRoutes } from './leads';
import { metaRoutes } from './meta';
import { organizationRoutes } from './organization';
import { policyRoutes } from './policies';
import { productRoutes } from './products';
import { withPatchAliases, type RouteDefinition } from './route';
import { smsRoutes } from './sms';
import { serviceRoutes } from './services';
import { transferRoutes } from './transfers';
import { webhookRoutes } from './webhooks';

/** The route table: every endpoint of the API, one row each, and the PATCH aliases of the spec's PUTs. */
export const routes: RouteDefinition[] = withPatchAliases([...leadRoutes, ...appointmentRoutes, ...companyRoutes, ...organizationRoutes, ...serviceRoutes, ...productRoutes, ...transferRoutes, ...policyRoutes, ...faqRoutes, ...inquiryRoutes, ...smsRoutes, ...eventRoutes, ...webhookRoutes, ...inboundEndpointRoutes, ...metaRoutes]);
