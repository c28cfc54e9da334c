import { WORKERS } from '../../functions/resources';
import type { WorkerDefinition, WorkerTrigger } from '#shared/workers';
import { loadFunction } from './handlers';
import { duringWorker } from './strict-access';

/**
 * The one worker a trigger reaches under `npm start` (a queue's or topic's by the events stack's name for it), from
 * the resource list: none, or two, is a mistake in the list, said at start.
 */
export function workerOn(kind: WorkerTrigger['kind'], name?: string): WorkerDefinition {
  const named = (trigger: WorkerTrigger) => (trigger.kind === 'queue' ? trigger.queue : trigger.kind === 'topic' ? trigger.topic : undefined);
  const found = WORKERS.filter((worker) => worker.trigger.kind === kind && (name === undefined || named(worker.trigger) === name));
  if (found.length !== 1) throw new Error(`npm start runs one worker on the ${kind}${name ? ` ${name}` : ''}; the resource list has ${found.length} (functions/resources.ts)`);
  return found[0]!;
}

/**
 * A worker's code as `npm start` runs it in process: its `local` export when it names one (given the message as the
 * local trigger has it), else its handler. Loaded on first use, as Lambda loads a function on its first invocation.
 */
export function localWorker<A extends unknown[], R>(worker: WorkerDefinition): (...args: A) => Promise<R> {
  return async (...args) => {
    const run = await loadFunction<(...args: A) => Promise<R>>(worker.local ?? worker.handler);
    return duringWorker(worker.name, () => run(...args));
  };
}
