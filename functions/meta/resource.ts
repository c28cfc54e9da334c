import { errorEnvelope } from '#shared/http/envelope';
import { defineResource } from '#shared/resource';
import { ErrorEnvelopeSchema } from '#shared/schema';
import { metaRoutes } from './routes';

/** The API's description of itself, and the error envelope every route answers with. */
export const meta = defineResource({
  name: 'meta',
  tags: { Reference: 'This description of the API and its reference page.' },
  // Public: the document and its reference page ask for no credential.
  sessionRoles: { write: 'MEMBER' },
  routes: metaRoutes,
  // Built as every route's error examples are.
  components: { ErrorEnvelope: { schema: ErrorEnvelopeSchema, example: errorEnvelope(404, 'Lead not found', 'NOT_FOUND') } },
});
