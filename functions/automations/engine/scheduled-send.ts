import type { StepMessage } from './engine';

/** What a waiting step's schedule asks SendMessage for: the step message, in its organization's group, on the step queue. */
export interface ScheduledSend {
  QueueUrl: string;
  MessageBody: string;
  MessageGroupId: string;
}

/**
 * A message of the step queue as the worker takes it: a step message, or a schedule's dead letter moved back to the
 * queue (the runbook's redrive), which is the SendMessage call's parameters with the step message in its MessageBody.
 */
export const stepMessageOf = (message: StepMessage | ScheduledSend): StepMessage => ('MessageBody' in message ? (JSON.parse(message.MessageBody) as StepMessage) : message);
