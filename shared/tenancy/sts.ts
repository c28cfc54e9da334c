/**
 * STS as a session is assumed with: the client and the one command, in a module of their own, so that a function that
 * acts for no organization (the workers, the stream consumer, the authorizers) bundles them in a chunk it never loads
 * (./credentials.ts). Re-exported rather than `import()` of the package, which would keep every command.
 */
export { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
