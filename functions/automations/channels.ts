import type { ChannelDefinition, WorkerDefinition } from '#shared/resource';

// Contract stub: the engine's queue, its dead letters and the step runner's worker replace this file.
export const automationChannels: ChannelDefinition[] = [];
export const automationWorkers: WorkerDefinition[] = [];
