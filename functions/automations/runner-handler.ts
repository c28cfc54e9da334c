import { setAutomationEngine } from './engine/engine';
import { deployedRunnerEngine } from './engine/eventbridge-scheduler';

/**
 * The step runner as Lambda runs it: the step worker's handler, with the deployed engine put in place once per
 * container. Kept apart from the worker so that the Scheduler client is in this function's bundle alone.
 */
export { handler } from './engine/step-worker';

const deployed = deployedRunnerEngine();
if (deployed) setAutomationEngine(deployed);
