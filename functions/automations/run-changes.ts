import type { ResourceChanges } from '#shared/resource';

// Contract stub: the runs' events (automation_run.completed|stopped|failed) and their audited kind replace this file.
export const runChanges: Pick<ResourceChanges, 'events' | 'audited'> = { events: [], audited: [] };
