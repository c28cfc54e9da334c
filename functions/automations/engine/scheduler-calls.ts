/**
 * What the runner's schedules (./eventbridge-scheduler.ts) load with import() at the first one made or deleted: the
 * client, the two commands and the two errors they read, so the chunk holds those alone rather than every command of
 * the Scheduler client.
 */
export { ConflictException, CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient } from '@aws-sdk/client-scheduler';
