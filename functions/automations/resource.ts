import { defineResource, namedComponents } from '#shared/resource';
import { changes } from './changes';
import { automationChannels, automationWorkers } from './channels';
import { automationKeys, automationKeySamples } from './entity';
import * as examples from './examples';
import { automationRoutes } from './routes';
import { runRoutes } from './run-routes';
import { Automation } from './schema';

export const automations = defineResource({
  name: 'automations',
  tags: { Automations: 'Texts, notes, status moves and webhooks run for a trigger’s events, with waits between them: missed-call text-back, instant replies, reminders, follow-ups and review requests.' },
  routes: [...automationRoutes, ...runRoutes],
  components: namedComponents({ Automation }, examples),
  channels: automationChannels,
  workers: automationWorkers,
  ...changes,
  keys: [{ builders: automationKeys, samples: automationKeySamples }],
});
