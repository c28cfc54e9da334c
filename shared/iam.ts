/**
 * An IAM policy document as JSON, as the stacks write it and the local strict mode evaluates it: written once for the
 * tenant sessions' policies (./tenancy/policies.ts) and the capabilities' statements (./routes/route.ts).
 */
export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: PolicyStatement[];
}
