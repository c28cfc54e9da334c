import { defineResource } from '#shared/resource';
import { ErrorEnvelopeSchema } from '#shared/schema';
import { metaRoutes } from './routes';

/** The API's description of itself, and the error envelope every route answers with. */
export const meta = defineResource({
  name: 'meta',
  tags: { Reference: 'This description of the API and its reference page.' },
  routes: metaRoutes,
  components: {
    ErrorEnvelope: {
      schema: ErrorEnvelopeSchema,
      example: { success: false, message: 'Lead not found', error: { status: 404, message: 'Lead not found', code: 'NOT_FOUND' } },
    },
  },
});
