import { defineResource, namedComponents } from '#shared/resource';
import { companyKeys, companyKeySamples } from './entity';
import * as examples from './examples';
import { companyRoutes } from './routes';
import { Company } from './schema';
import { companyNotes } from './notes';
import { changes } from './changes';

export const companies = defineResource({
  name: 'companies',
  tags: { Companies: 'Customer businesses (strata managers, builders, agencies) and the team’s notes on them.' },
  // Members keep the customer businesses of the leads they work, and their notes.
  sessionRoles: { write: 'MEMBER' },
  routes: companyRoutes,
  components: { ...namedComponents({ Company }, examples), ...companyNotes.components },
  ...changes,
  keys: [{ builders: companyKeys, samples: companyKeySamples }],
});
