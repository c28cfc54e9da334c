import { javaToolOptions, LOCAL_JVM_OPTIONS } from '../../infra/local/dynamodb-local';

/**
 * JVM options for the suite's DynamoDB Locals. DynamoDB Local is the suite's busiest process, and on two cores it
 * competes with the test workers.
 * - The serial collector, as `npm start` runs it (LOCAL_JVM_OPTIONS), measured about a fifth less of its CPU than the
 *   JVM's default (G1) on the same test files.
 * - The client compiler alone (TieredStopAtLevel=1) saved more with one DynamoDB Local for the suite, but slowed it
 *   enough that concurrent writes met more transaction conflicts than their retries allow, which the defaults never
 *   show. With one per worker it made the whole suite slower (669 s against 606 s), though faster on nine files alone.
 *   It is kept for the DynamoDB Locals that `npm start` starts for one test and stops within seconds: those mostly pay
 *   the JVM's warm-up, which the client compiler nearly halves.
 * `npm run stress` and the bench's own DynamoDB Local keep the JVM's defaults.
 */
export const TEST_JVM_OPTIONS = LOCAL_JVM_OPTIONS;
export const SHORT_LIVED_JVM_OPTIONS = [...TEST_JVM_OPTIONS, '-XX:TieredStopAtLevel=1'];

/** The environment that hands a spawned `npm start`'s DynamoDB Local the short-lived options, after any the machine already sets. */
export const shortLivedJvmEnv = () => ({ JAVA_TOOL_OPTIONS: javaToolOptions(SHORT_LIVED_JVM_OPTIONS) });
