import { defineResource, namedComponents } from '#shared/resource';
import { changes } from './changes';
import { automationChannels, automationWorkers } from './engine/channels';
import { automationKeys, automationKeySamples } from './entity';
import * as examples from './examples';
import { automationRoutes } from './routes';
import { runRoutes } from './runs/routes';
import { enrolmentRoutes } from './enrolments/routes';
import { automationEnrolments, enrolmentWorker } from './enrolments/queue';
import { Enrolment } from './enrolments/schema';
import { Automation } from './schema';
import { runKeys, runKeySamples } from './runs/entity';
import * as runExamples from './runs/examples';
import { Run, RunListItem } from './runs/schema';

export const automations = defineResource({
  name: 'automations',
  tags: { Automations: 'Texts, notes, status moves and webhooks run for a trigger’s events, with waits between them: missed-call text-back, instant replies, reminders, follow-ups and review requests.' },
  routes: [...automationRoutes, ...runRoutes, ...enrolmentRoutes],
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  components: namedComponents({ Automation, AutomationRun: Run, AutomationRunListItem: RunListItem, AutomationEnrolment: Enrolment }, { ...examples, ...runExamples }),
  channels: [...automationChannels, automationEnrolments],
  workers: [...automationWorkers, enrolmentWorker],
  ...changes,
  keys: [
    { builders: automationKeys, samples: automationKeySamples },
    { builders: runKeys, samples: runKeySamples },
  ],
});
