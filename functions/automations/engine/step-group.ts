import type { StepMessage } from './engine';

/**
 * A step message's group on the step queue: its organization. SQS serves the groups of a fair queue by their messages
 * in flight, so one organization's burst waits on itself; the in-process queue of `npm start` serves them the same way.
 * A module of its own: the channel's declaration and the SQS sender both read it, and neither brings the other along.
 */
export const stepMessageGroup = (message: StepMessage): string => message.organizationId;
