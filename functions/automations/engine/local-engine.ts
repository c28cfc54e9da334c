import { clock as sharedClock, type Clock } from '#shared/clock';
import { setAutomationEngine, type AutomationEngine, type StepMessage, type StepScheduler } from './engine';

/** The in-process step queue `npm start` makes from the channel (infra/local/queue.ts), its jobs taken by `runStepMessage`. */
export interface LocalStepQueue {
  send(messages: StepMessage[]): Promise<void>;
  /** Whether a message is being taken or waits to be. */
  readonly busy: boolean;
  idle(): Promise<void>;
}

/** The engine of `npm start` and the tests, which can say when it has nothing left to do now. */
export interface LocalAutomationEngine extends AutomationEngine {
  /** Whether a message is in flight, or a schedule's time has passed and it has not yet been sent. */
  readonly busy: boolean;
  /** Resolves once it is not busy: what a step started has run, and no schedule is due now. */
  idle(): Promise<void>;
  /** The names of the schedules waiting for their time. */
  scheduled(): string[];
}

interface Pending {
  atMs: number;
  cancel: () => void;
  sent: Promise<void>;
}

/**
 * One-time schedules as timers on the clock: at its time a schedule sends its message to the queue and is gone, as
 * EventBridge Scheduler's `ActionAfterCompletion: DELETE` has it. Creating one that exists succeeds (Scheduler's
 * ConflictException, which the deployed scheduler takes for success), as does deleting one already gone; a time
 * already passed sends at once.
 */
function clockScheduler(queue: LocalStepQueue, clock: Clock): StepScheduler & { pending: Map<string, Pending> } {
  const pending = new Map<string, Pending>();
  return {
    pending,
    async create(name, atMs, message) {
      if (pending.has(name)) return;
      if (atMs <= clock.now()) return queue.send([message]);
      let sent!: () => void;
      const entry: Pending = { atMs, cancel: () => undefined, sent: new Promise<void>((resolve) => (sent = resolve)) };
      entry.cancel = clock.setTimer(atMs, () => {
        pending.delete(name);
        void queue.send([message]).finally(sent);
      });
      pending.set(name, entry);
    },
    async delete(name) {
      pending.get(name)?.cancel();
      pending.delete(name);
    },
  };
}

/** The local engine on `queue`, its schedules timers on `clock` (the one the code reads unless told). */
export function localAutomationEngine(queue: LocalStepQueue, clock: Clock = sharedClock): LocalAutomationEngine {
  const scheduler = clockScheduler(queue, clock);
  // Past due, not merely due: a manual clock fires the schedules of one instant one by one, settling after each, and
  // one of them waiting for the next would wait forever.
  const due = () => [...scheduler.pending.values()].filter(({ atMs }) => atMs < clock.now());
  return {
    queue: { send: (messages) => queue.send([...messages]) },
    scheduler: { create: scheduler.create, delete: scheduler.delete },
    get busy() {
      return queue.busy || due().length > 0;
    },
    async idle() {
      // A schedule firing sends to the queue, and a message taken may set or fire more: wait until neither is left.
      for (;;) {
        await Promise.all(due().map(({ sent }) => sent));
        await queue.idle();
        if (!queue.busy && due().length === 0) return;
      }
    },
    scheduled: () => [...scheduler.pending.keys()],
  };
}

/** What `npm start` installs for the step queue (the channel's `local.install`): the local engine, in place for the runner and the stream consumer. */
export function installLocalAutomationEngine(queue: LocalStepQueue): LocalAutomationEngine {
  const engine = localAutomationEngine(queue);
  setAutomationEngine(engine);
  return engine;
}
