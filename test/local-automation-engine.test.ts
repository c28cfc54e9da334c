import { afterEach, describe, expect, it } from 'vitest';
import { clock, ManualClock } from '#shared/clock';
import type { StepMessage } from '../functions/automations/engine/engine';
import { automationSteps } from '../functions/automations/engine/channels';
import { localAutomationEngine } from '../functions/automations/engine/local-engine';
import { createLocalQueue, type LocalQueue } from '../infra/local/queue';
import { DEFAULT_CONCURRENCY } from '../infra/cdk/options';
import { useTestApi } from './support/api';

// The engine `npm start` and the tests run automations on: schedules are timers on the clock the code reads, and the
// step queue an in-process queue that follows it, so a test moves a run's waits by moving the clock.

const HOUR = 3_600_000;
const START = Date.parse('2026-11-20T09:00:00Z');
const advance = (runId: string, wake = 0): StepMessage => ({ kind: 'advance', organizationId: 'org_1', runId, wake });

/** The engine on a manual clock, its queue taking each message with `take` and noting the time it was taken at. */
function engineOn(take: (message: StepMessage) => Promise<void> = async () => {}) {
  const manual = new ManualClock(START);
  const taken: { runId: string; at: number }[] = [];
  // As infra/local/server.ts makes the step channel's queue: its clock, its redelivery, its message groups.
  const queue: LocalQueue<StepMessage> = createLocalQueue<StepMessage>({
    what: 'automation step',
    logged: ({ runId }) => ({ runId }),
    take: async (message) => {
      taken.push({ runId: message.runId, at: manual.now() });
      await take(message);
    },
    onClock: { clock: manual, redeliverAfterMs: automationSteps.visibilityTimeoutSeconds * 1000, maxReceives: automationSteps.deadLetters.maxReceiveCount },
    group: automationSteps.messageGroup,
  });
  stops.push(() => queue.stop());
  const engine = localAutomationEngine(queue, manual);
  return { manual, queue, engine, taken, settle: () => engine.idle() };
}
const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

/** Lets every promise and timer already due run, a few rounds over. */
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the local engine’s schedules', () => {
  it('send their messages at their own times, in time order, whatever the order they were made in', async () => {
    const { manual, engine, taken, settle } = engineOn();
    await engine.scheduler.create('run_c-2-1', START + 3 * HOUR, advance('run_c'));
    await engine.scheduler.create('run_a-2-1', START + HOUR, advance('run_a'));
    await engine.scheduler.create('run_b-2-1', START + 2 * HOUR, advance('run_b'));
    await manual.advance(90 * 60_000, settle);
    expect(taken).toEqual([{ runId: 'run_a', at: START + HOUR }]);
    await manual.advance(24 * HOUR, settle);
    expect(taken).toEqual([
      { runId: 'run_a', at: START + HOUR },
      { runId: 'run_b', at: START + 2 * HOUR },
      { runId: 'run_c', at: START + 3 * HOUR },
    ]);
    // Each is gone once it has fired, as a one-time schedule deleted after completion.
    expect(engine.scheduled()).toEqual([]);
  });

  it('sends nothing for a schedule deleted before its time, and deleting one already gone succeeds', async () => {
    const { manual, engine, taken, settle } = engineOn();
    await engine.scheduler.create('run_a-1-1', START + HOUR, advance('run_a', 1));
    await engine.scheduler.create('run_b-1-1', START + HOUR, advance('run_b', 1));
    await engine.scheduler.delete('run_a-1-1');
    await engine.scheduler.delete('run_a-1-1');
    await engine.scheduler.delete('never-made');
    expect(engine.scheduled()).toEqual(['run_b-1-1']);
    await manual.advance(2 * HOUR, settle);
    expect(taken.map(({ runId }) => runId)).toEqual(['run_b']);
  });

  it('makes one schedule of a name created twice, as Scheduler refuses the second and the engine takes that for success', async () => {
    const { manual, engine, taken, settle } = engineOn();
    await engine.scheduler.create('run_a-1-1', START + HOUR, advance('run_a', 1));
    await engine.scheduler.create('run_a-1-1', START + HOUR, advance('run_a', 1));
    await manual.advance(2 * HOUR, settle);
    expect(taken).toEqual([{ runId: 'run_a', at: START + HOUR }]);
  });

  it('sends at once a schedule whose time has passed', async () => {
    const { engine, taken, settle } = engineOn();
    await engine.scheduler.create('run_a-1-1', START - 1, advance('run_a', 1));
    await settle();
    expect(taken).toEqual([{ runId: 'run_a', at: START }]);
    expect(engine.scheduled()).toEqual([]);
  });

  it('fires what a fired message schedules within the same advance, at its own time', async () => {
    const { manual, engine, taken, settle } = engineOn(async (message) => {
      if (message.kind === 'advance' && message.wake < 2) await engine.scheduler.create(`${message.runId}-0-${message.wake + 1}`, manual.now() + HOUR, advance(message.runId, message.wake + 1));
    });
    await engine.scheduler.create('run_a-0-0', START + HOUR, advance('run_a'));
    await manual.advance(5 * HOUR, settle);
    expect(taken.map(({ at }) => at)).toEqual([START + HOUR, START + 2 * HOUR, START + 3 * HOUR]);
  });
});

describe('the local engine’s idle', () => {
  it('waits for a message in flight and for what it sends on, and not for a schedule still to come', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const taking = new Promise<void>((resolve) => (started = resolve));
    const { engine, taken } = engineOn(async (message) => {
      if (message.runId !== 'run_a') return;
      started();
      await held;
      await engine.queue.send([advance('run_b')]);
    });
    await engine.scheduler.create('run_c-1-1', START + HOUR, advance('run_c', 1));
    await engine.queue.send([advance('run_a')]);
    expect(engine.busy).toBe(true);
    let idle = false;
    const waiting = engine.idle().then(() => (idle = true));
    await taking;
    await turns();
    expect(taken.map(({ runId }) => runId)).toEqual(['run_a']);
    expect(idle).toBe(false);
    release();
    await waiting;
    expect(taken.map(({ runId }) => runId)).toEqual(['run_a', 'run_b']);
    expect(engine.busy).toBe(false);
    expect(engine.scheduled()).toEqual(['run_c-1-1']);
  });

  it('waits for a schedule whose time has passed but whose timer has not fired yet, as a running clock’s may not have', async () => {
    // A clock whose time has moved on before its timers fire, as the system clock's setTimeout fires a moment late.
    let now = START;
    const timers: (() => void)[] = [];
    const lagging = { now: () => now, setTimer: (_atMs: number, fire: () => void) => (timers.push(fire), () => undefined) };
    const taken: string[] = [];
    const queue = createLocalQueue<StepMessage>({ what: 'automation step', logged: () => ({}), take: async ({ runId }) => void taken.push(runId) });
    stops.push(() => queue.stop());
    const engine = localAutomationEngine(queue, lagging);
    await engine.scheduler.create('run_a-1-1', START + HOUR, advance('run_a', 1));
    expect(engine.busy).toBe(false);
    now = START + HOUR + 1;
    expect(engine.busy).toBe(true);
    let idle = false;
    const waiting = engine.idle().then(() => (idle = true));
    await turns();
    expect(idle).toBe(false);
    timers[0]!();
    await waiting;
    expect(taken).toEqual(['run_a']);
  });
});

describe('the step queue under npm start', () => {
  it('hands a message whose attempt threw again after the visibility timeout, and dead-letters it after five receives', async () => {
    let failing = true;
    const { manual, queue, engine, taken, settle } = engineOn(async () => {
      if (failing) throw new Error('the table timed out');
    });
    await engine.queue.send([advance('run_a')]);
    await settle();
    expect(taken).toHaveLength(1);
    // Not before the visibility timeout: a step's claim lease is still held until then.
    await manual.advance(automationSteps.visibilityTimeoutSeconds * 1000 - 1, settle);
    expect(taken).toHaveLength(1);
    await manual.advance(1, settle);
    expect(taken.map(({ at }) => at)).toEqual([START, START + automationSteps.visibilityTimeoutSeconds * 1000]);
    await manual.advance(3_600_000, settle);
    expect(taken).toHaveLength(5);
    expect(queue.deadLettered).toEqual([expect.objectContaining({ runId: 'run_a', reason: expect.stringContaining('failed 5 receives') })]);
    failing = false;
    await manual.advance(3_600_000, settle);
    expect(taken).toHaveLength(5);
  });
});

describe('the step queue under npm start, shared by organizations', () => {
  /** Steps taken, each held until the test lets it finish: a slot frees only when told. */
  function heldSteps() {
    const held: (() => void)[] = [];
    const order: string[] = [];
    const queue = engineOn(async (message) => {
      order.push(`${message.organizationId} ${message.runId}`);
      await new Promise<void>((resolve) => held.push(resolve));
    });
    /** What was sent falls due on the wall's timers (zero delay), after those set before it: then what is due is taken. */
    const fallDue = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await turns();
    };
    /** Lets the `n` oldest steps in flight finish, and whatever is due be taken in their place. */
    const finish = async (n: number) => {
      for (const resolve of held.splice(0, n)) resolve();
      await turns();
    };
    return { ...queue, order, fallDue, finish, inFlight: () => held.length };
  }

  it('takes a quiet organization’s missed-call text-back at the first slot that frees while another’s 1 000 enrolled leads wait, each run’s next step queued behind them', async () => {
    const { engine, order, fallDue, finish, inFlight } = heldSteps();
    const slots = DEFAULT_CONCURRENCY.deliveries;
    // The bulk organization enrols 1 000 leads in a multi-step automation: each run's step, once taken, queues its next.
    const bulk = Array.from({ length: 1_000 }, (_, i): StepMessage => ({ kind: 'advance', organizationId: 'org_bulk', runId: `run_bulk_${String(i).padStart(4, '0')}`, wake: 1 }));
    await engine.queue.send(bulk);
    await fallDue();
    expect(order).toHaveLength(slots);
    await finish(slots / 2);
    expect(order).toHaveLength(slots + slots / 2);
    await engine.queue.send(order.map((step): StepMessage => ({ kind: 'advance', organizationId: 'org_bulk', runId: step.split(' ')[1]!, wake: 2 })));

    // The quiet organization's missed call starts its text-back run while every slot holds a bulk step.
    await engine.queue.send([{ kind: 'advance', organizationId: 'org_quiet', runId: 'run_quiet', wake: 1 }]);
    await fallDue();
    expect(inFlight()).toBe(slots);
    const queuedAt = order.length;
    // K = 1: the first slot that frees takes it, ahead of the 985 bulk steps and 15 next steps already waiting.
    await finish(1);
    expect(order.slice(queuedAt)).toEqual(['org_quiet run_quiet']);

    // The bulk organization's steps are all taken after it, in the order they were queued.
    while (inFlight()) await finish(slots);
    expect(order).toHaveLength(1_000 + 15 + 1);
    const bulkOrder = order.filter((step) => step.startsWith('org_bulk'));
    expect(bulkOrder.slice(0, 1_000)).toEqual(bulk.map(({ runId }) => `org_bulk ${runId}`));
  });

  it('shares the slots between two busy organizations by the steps each has in flight, whichever queued first', async () => {
    const { engine, order, fallDue, finish, inFlight } = heldSteps();
    const slots = DEFAULT_CONCURRENCY.deliveries;
    const steps = (organizationId: string, count: number) => Array.from({ length: count }, (_, i): StepMessage => ({ kind: 'advance', organizationId, runId: `run_${organizationId}_${i}`, wake: 1 }));
    await engine.queue.send(steps('org_first', 100));
    await engine.queue.send(steps('org_second', 100));
    await fallDue();
    // The first organization's burst filled every slot before the second's arrived; as its steps finish, the freed
    // slots go to the second until both have as many in flight, and then to each in turn.
    expect(order.every((step) => step.startsWith('org_first'))).toBe(true);
    await finish(slots);
    const next = order.slice(slots);
    expect(next.slice(0, slots / 2).every((step) => step.startsWith('org_second'))).toBe(true);
    expect(next.filter((step) => step.startsWith('org_second'))).toHaveLength(slots / 2);
    expect(next.filter((step) => step.startsWith('org_first'))).toHaveLength(slots / 2);
    while (inFlight()) await finish(slots);
    expect(order).toHaveLength(200);
  });
});

describe('a test API on a manual clock', () => {
  const api = useTestApi({ events: true, clock: 'manual' });

  it('starts at the real time and moves only when told, firing timers set on the clock the code reads at their times', async () => {
    const started = api.clock.now();
    expect(Math.abs(started - Date.now())).toBeLessThan(60_000);
    const fired: number[] = [];
    clock.setTimer(started + 2 * HOUR, () => fired.push(clock.now()));
    clock.setTimer(started + HOUR, () => fired.push(clock.now()));
    await api.advanceTime('PT1H30M');
    expect(fired).toEqual([started + HOUR]);
    expect(api.clock.now()).toBe(started + 90 * 60_000);
    await api.advanceTime(30 * 60_000);
    expect(fired).toEqual([started + HOUR, started + 2 * HOUR]);
    await expect(api.advanceTime('P1M')).rejects.toThrow(/ISO 8601 duration/);
  });
});
