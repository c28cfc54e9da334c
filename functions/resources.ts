import { appointmentRoutes } from './appointments/routes';
import { companyRoutes } from './companies/routes';
import { eventRoutes } from './events/routes';
import { faqs } from './faqs/collection';
import { inboundEndpointRoutes } from './inbound-endpoints/routes';
import { inquiryRoutes } from './inquiries/routes';
import { leadRoutes } from './leads/routes';
import { metaRoutes } from './meta/routes';
import { organizationRoutes } from './organization/routes';
import { policies } from './policies/collection';
import { productRoutes } from './products/routes';
import { withPatchAliases, type RouteDefinition } from '../shared/routes/route';
import { smsRoutes } from './sms/routes';
import { serviceRoutes } from './services/routes';
import { transferRoutes } from './transfers/routes';
import { webhookRoutes } from './webhooks/routes';

/** The route table: every endpoint of the API, one row each, and the PATCH aliases of the spec's PUTs. */
export const routes: RouteDefinition[] = withPatchAliases([...leadRoutes, ...appointmentRoutes, ...companyRoutes, ...organizationRoutes, ...serviceRoutes, ...productRoutes, ...transferRoutes, ...policies.routes, ...faqs.routes, ...inquiryRoutes, ...smsRoutes, ...eventRoutes, ...webhookRoutes, ...inboundEndpointRoutes, ...metaRoutes]);
