/**
 * The time as the code that schedules work reads it: the system's clock deployed and under `npm start`, a clock a
 * test moves by hand, so no test sleeps through a wait. Code that computes when something is due reads `clock.now()`
 * and sets timers with `clock.setTimer`, never `Date.now()` or `setTimeout` directly.
 */
export interface Clock {
  now(): number;
  /** Calls `fire` at `atMs` (at once when that has passed); the answer cancels it. */
  setTimer(atMs: number, fire: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (atMs, fire) => {
    const timer = setTimeout(fire, Math.max(0, atMs - Date.now()));
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

let current: Clock = systemClock;

/** The clock in use: every reader goes through this, so `setClock` reaches code that imported it earlier. */
export const clock: Clock = {
  now: () => current.now(),
  setTimer: (atMs, fire) => current.setTimer(atMs, fire),
};

/** Puts a clock in place (tests, the local server); the answer puts the previous one back. */
export function setClock(next: Clock): () => void {
  const previous = current;
  current = next;
  return () => {
    current = previous;
  };
}

/**
 * A clock that moves only when told: `advance` moves it forward timer by timer, each fired at its own time in order
 * (timers set while firing included), then to the end.
 */
export class ManualClock implements Clock {
  private nowMs: number;
  private timers: { atMs: number; seq: number; fire: () => void }[] = [];
  private seq = 0;

  constructor(startMs = Date.now()) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimer(atMs: number, fire: () => void): () => void {
    const timer = { atMs, seq: this.seq++, fire };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((other) => other !== timer);
    };
  }

  /** The earliest timer's time, if any is set. */
  nextTimerAt(): number | undefined {
    return this.timers.reduce<number | undefined>((earliest, { atMs }) => (earliest === undefined || atMs < earliest ? atMs : earliest), undefined);
  }

  /**
   * Moves to `toMs`, firing every timer due by then in time order; `settle` runs after each firing (a test awaits the
   * work a timer started before the clock moves on).
   */
  async advanceTo(toMs: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    for (;;) {
      const due = this.timers.filter(({ atMs }) => atMs <= toMs).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((other) => other !== due);
      this.nowMs = Math.max(this.nowMs, due.atMs);
      due.fire();
      await settle();
    }
    this.nowMs = Math.max(this.nowMs, toMs);
    await settle();
  }

  advance(ms: number, settle?: () => Promise<void>): Promise<void> {
    return this.advanceTo(this.nowMs + ms, settle);
  }
}
