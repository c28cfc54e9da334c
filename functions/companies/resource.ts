import { defineResource, lifecycleEvents } from '../../shared/resource';
import { companyAudit, companyKeys, companyKeySamples, companyNoteAudit, fromCompanyItem } from './entity';
import { company, companyNote } from './examples';
import { companyRoutes } from './routes';
import { Company, CompanyNote } from './schema';

export const companies = defineResource({
  name: 'companies',
  tags: { Companies: 'Customer businesses (strata managers, builders, agencies) and the team’s notes on them.' },
  routes: companyRoutes,
  components: { Company: { schema: Company, example: company }, CompanyNote: { schema: CompanyNote, example: companyNote } },
  events: [lifecycleEvents({ entity: 'COMPANY', toData: fromCompanyItem, created: 'company.created', updated: 'company.updated', deleted: 'company.deleted' })],
  audited: [companyAudit, companyNoteAudit],
  keys: [{ builders: companyKeys, samples: companyKeySamples }],
});
