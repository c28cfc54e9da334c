import { defineResource, lifecycleEvents } from '../../shared/resource';
import { fromTransferItem, transferAudit, transferKeys, transferKeySamples } from './entity';
import { transfer } from './examples';
import { transferRoutes } from './routes';
import { Transfer } from './schema';

export const transfers = defineResource({
  name: 'transfers',
  tags: { Transfers: 'Rules for when and where the AI receptionist hands a call over to a person.' },
  routes: transferRoutes,
  components: { Transfer: { schema: Transfer, example: transfer } },
  events: [lifecycleEvents({ entity: 'TRANSFER', toData: (item) => fromTransferItem(item).value, created: 'transfer.created', updated: 'transfer.updated', deleted: 'transfer.deleted' })],
  audited: [transferAudit],
  keys: [{ builders: transferKeys, samples: transferKeySamples }],
});
