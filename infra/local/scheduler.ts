import { SCHEDULED_JOBS, type ScheduledJob } from '../schedules';

const functionsDir = new URL('../../functions/', import.meta.url);

export interface LocalScheduler {
  stop: () => void;
}

/**
 * Runs each scheduled job's function in process at its interval, as EventBridge invokes it deployed (or every
 * `everyMs` when given, for tests). A run still going when the next is due is not started twice.
 */
export function startScheduledJobs({ jobs = SCHEDULED_JOBS, everyMs, onError }: { jobs?: readonly ScheduledJob[]; everyMs?: number; onError: (job: ScheduledJob, error: unknown) => void }): LocalScheduler {
  const timers = jobs.map((job) => {
    let running = false;
    const run = async () => {
      if (running) return;
      running = true;
      try {
        const { handler } = (await import(/* @vite-ignore */ new URL(`${job.handler}.ts`, functionsDir).href)) as { handler: () => Promise<void> };
        await handler();
      } catch (error) {
        onError(job, error);
      } finally {
        running = false;
      }
    };
    return setInterval(() => void run(), everyMs ?? job.everyMinutes * 60_000).unref();
  });
  return { stop: () => timers.forEach((timer) => clearInterval(timer)) };
}
