import { defineResource } from '../../shared/resource';
import { transferKeys, transferKeySamples } from './entity';
import { transfer } from './examples';
import { transferRoutes } from './routes';
import { Transfer } from './schema';
import { changes } from './changes';

export const transfers = defineResource({
  name: 'transfers',
  tags: { Transfers: 'Rules for when and where the AI receptionist hands a call over to a person.' },
  routes: transferRoutes,
  components: { Transfer: { schema: Transfer, example: transfer } },
  ...changes,
  keys: [{ builders: transferKeys, samples: transferKeySamples }],
});
