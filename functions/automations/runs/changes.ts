import type { EventSource, ResourceChanges } from '#shared/resource';
import { isEnded } from './attributes';
import { fromRunItem, runAudit } from './entity';

const ENDINGS = { COMPLETED: 'automation_run.completed', STOPPED: 'automation_run.stopped', FAILED: 'automation_run.failed' } as const;

/** A run's event when its status enters an ending (COMPLETED, STOPPED, FAILED); its steps moving say nothing. */
const runEvents: EventSource = {
  entity: runAudit.entity,
  data: 'AutomationRun',
  types: Object.values(ENDINGS),
  eventsOf: ({ oldItem, newItem }) => {
    const status = newItem?.status as keyof typeof ENDINGS | undefined;
    if (!newItem || !status || !isEnded(status) || (oldItem && isEnded(String(oldItem.status)))) return [];
    return [{ type: ENDINGS[status], data: fromRunItem(newItem) }];
  },
};

/** The runs' events and audited writes, as the stream consumer reads them. */
export const runChanges: ResourceChanges = { events: [runEvents], audited: [runAudit] };
