import * as v from 'valibot';
import { NonEmptyString, deletedSchema, integerString, pageSchema, partialUpdateBody } from '../../shared/schema';

export const Policy = v.object({
  id: v.pipe(v.number(), v.integer()),
  title: v.string(),
  content: v.string(),
  isActive: v.boolean(),
});
export type Policy = v.InferOutput<typeof Policy>;

const policyFields = {
  title: NonEmptyString('title', 200),
  content: NonEmptyString('content', 20_000),
  isActive: v.boolean('isActive must be a boolean'),
};

export const CreatePolicyBody = v.strictObject({ ...policyFields, isActive: v.optional(policyFields.isActive, true) });
export type CreatePolicyBody = v.InferOutput<typeof CreatePolicyBody>;

export const UpdatePolicyBody = partialUpdateBody(policyFields);
export type PolicyChanges = v.InferOutput<typeof UpdatePolicyBody>;

export const PolicyIdPath = v.object({ policyId: integerString('policyId') });
export const PolicyPage = pageSchema('policies', Policy);
export const PolicyResponse = v.object({ policy: Policy });
export const PolicyDeleted = deletedSchema(v.pipe(v.number(), v.integer()));
