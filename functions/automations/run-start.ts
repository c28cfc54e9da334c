import type { StopCondition } from './catalog';

// Contract stub: the runs' module (starting, stopping and moving runs from the stream) replaces this file.

export interface RunStart {
  organizationId: string;
  automationId: string;
  version: number;
  leadId: string;
  appointmentId?: string;
  /** The event that started it: one run per (automation, event), so a replayed event starts nothing twice. */
  triggerEventId: string;
  triggeredAt: string;
}

/** Starts a run (conditional on none for this automation and event) and queues its first step; `started` false when it existed. */
export async function startRun(start: RunStart): Promise<{ runId: string; started: boolean }> {
  void start;
  throw new Error('startRun is not built yet');
}

/** What a run watches: its lead, and its appointment if it has one. */
export type Watched = { kind: 'lead'; leadId: string } | { kind: 'appointment'; appointmentId: string };

/**
 * Stops the active runs watching this record whose `stopWhen` holds `condition` (`lead.deleted` and
 * `appointment.deleted` stop every run watching it); a change written by a run itself (`byRunId`) does not stop that run,
 * nor the runs the same event started (`startedBy`).
 */
export async function stopRunsWatching(organizationId: string, watched: Watched, condition: StopCondition | 'lead.deleted', options: { byRunId?: string; startedBy?: readonly string[] } = {}): Promise<void> {
  void organizationId;
  void watched;
  void condition;
  void options;
}

/** Moves the waits of active runs anchored on this appointment's times (it was moved). */
export async function rescheduleRunsWatching(organizationId: string, appointmentId: string): Promise<void> {
  void organizationId;
  void appointmentId;
}

/** Stops every active run of a deleted automation. */
export async function stopRunsOfAutomation(organizationId: string, automationId: string): Promise<void> {
  void organizationId;
  void automationId;
}
