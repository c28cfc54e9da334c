import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../infra/cdk/app';
import { DataStack } from '../infra/cdk/data-stack';
import { readOptions } from '../infra/cdk/options';
import { SecretsKeyReplicaStack } from '../infra/cdk/secrets-key-replica';
import { multiRegionSealingKeyAlias, opensSecrets, sealingKeyAlias, sealsSecrets } from '#shared/sealing-key';

// The secrets key as `-c secretsKeyReplicaRegion` shapes it: a multi-region key beside the first, and its replica in
// that region. Only the data stack and the replica's are built (test/infra.test.ts holds the whole app's grants).

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Json = { Resources: Record<string, Resource>; Parameters?: Record<string, any>; Outputs?: Record<string, any>; Rules?: Record<string, any> };
const base = { 'aws:cdk:bundling-stacks': [], alarmEmail: 'none' };

/** The data stack's template under these options, as `cdk synth -c …` would make it. */
function dataTemplate(context: Record<string, string>): Json {
  const app = new App({ context: { ...base, ...context } });
  const options = readOptions(app.node);
  const replica = options.secretsKeyReplicaRegion ? { secretsKeyReplicaRegion: options.secretsKeyReplicaRegion } : {};
  return Template.fromStack(new DataStack(app, 'Data', { tableName: options.tableName, backups: options.backups, ...replica })).toJSON() as Json;
}
const ofType = (template: Json, type: string) => Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
const replicaTemplate = () => Template.fromStack(new SecretsKeyReplicaStack(new App(), 'Replica', { env: { region: 'ap-southeast-4' }, tableName: 'sales-pipeline' })).toJSON() as Json;
const where = (replicaRegion?: string) => ({ tableName: 'sales-pipeline', partition: 'aws', region: 'ap-southeast-2', account: '123456789012', urlSuffix: 'amazonaws.com', setting: (name: string) => (name === 'secretsKeyReplicaRegion' ? replicaRegion : undefined) });

describe('the secrets key without -c secretsKeyReplicaRegion', () => {
  it('is one single-region key, and no replica stack is made', () => {
    const keys = ofType(dataTemplate({}), 'AWS::KMS::Key');
    expect(keys).toHaveLength(1);
    expect(keys[0]![0]).toMatch(/^SecretsKey[0-9A-F]{8}$/);
    expect(keys[0]![1].Properties.MultiRegion).toBeUndefined();
    expect(buildApp(new App({ context: base })).secretsKeyReplica).toBeUndefined();
  });

  it('seals by the first key’s alias', () => {
    expect(sealsSecrets.environment(where())).toEqual({ SECRETS_KEY_ALIAS_ARN: `arn:aws:kms:ap-southeast-2:123456789012:${sealingKeyAlias('sales-pipeline')}` });
  });
});

describe('-c secretsKeyReplicaRegion', () => {
  const without = dataTemplate({});
  const template = dataTemplate({ secretsKeyReplicaRegion: 'ap-southeast-4' });

  it('leaves the first key as it was: its logical id, properties and alias unchanged, so no deploy replaces it', () => {
    const [first, added] = ofType(template, 'AWS::KMS::Key');
    expect(first).toEqual(ofType(without, 'AWS::KMS::Key')[0]);
    expect(ofType(template, 'AWS::KMS::Alias')[0]).toEqual(ofType(without, 'AWS::KMS::Alias')[0]);
    expect(added![0]).toMatch(/^SecretsKeyMultiRegion/);
  });

  it('adds a multi-region key, rotated and retained, with the first key’s policy, its own alias, and its ARN as an output', () => {
    const [[firstId, first], [id, key]] = ofType(template, 'AWS::KMS::Key') as [[string, Resource], [string, Resource]];
    expect(key.Properties).toMatchObject({ MultiRegion: true, EnableKeyRotation: true, KeyPolicy: first.Properties.KeyPolicy });
    expect([key.DeletionPolicy, key.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    expect(ofType(template, 'AWS::KMS::Alias').map(([, alias]) => [alias.Properties.AliasName, alias.Properties.TargetKeyId])).toEqual([
      [sealingKeyAlias('sales-pipeline'), { 'Fn::GetAtt': [firstId, 'Arn'] }],
      [multiRegionSealingKeyAlias('sales-pipeline'), { 'Fn::GetAtt': [id, 'Arn'] }],
    ]);
    expect(template.Outputs!.SecretsKeyMultiRegionArn.Value).toEqual({ 'Fn::GetAtt': [id, 'Arn'] });
  });

  it('seals new secrets by the multi-region key’s alias; sealing and opening are granted on keys of either alias', () => {
    expect(sealsSecrets.environment(where('ap-southeast-4'))).toEqual({ SECRETS_KEY_ALIAS_ARN: `arn:aws:kms:ap-southeast-2:123456789012:${multiRegionSealingKeyAlias('sales-pipeline')}` });
    for (const capability of [sealsSecrets, opensSecrets]) {
      for (const replicaRegion of [undefined, 'ap-southeast-4']) {
        expect(capability.statements(where(replicaRegion))[0]!.conditions).toEqual({ 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [sealingKeyAlias('sales-pipeline'), multiRegionSealingKeyAlias('sales-pipeline')] } });
      }
    }
  });

  it('refuses, before CloudFormation changes anything, a deploy of the data stack to the replica’s region, where the replica holds the alias', () => {
    expect(Object.keys(without.Rules ?? {}).filter((id) => id.startsWith('SecretsKey'))).toEqual([]);
    expect(Object.entries(template.Rules ?? {}).filter(([id]) => id.startsWith('SecretsKeyReplicaElsewhere')).map(([, rule]) => rule.Assertions)).toEqual([
      [{ Assert: { 'Fn::Not': [{ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'ap-southeast-4'] }] }, AssertDescription: expect.stringContaining('secretsKeyReplicaRegion (ap-southeast-4) must be another region') }],
    ]);
  });

  it('makes the replica in its own stack in that region, deployed after the data stack, with the primary’s policy and the same alias', () => {
    const { data, secretsKeyReplica } = buildApp(new App({ context: { ...base, secretsKeyReplicaRegion: 'ap-southeast-4' } }));
    expect([secretsKeyReplica!.stackName, secretsKeyReplica!.region, secretsKeyReplica!.terminationProtection]).toEqual(['SalesPipelineSecretsKeyReplica', 'ap-southeast-4', true]);
    expect(secretsKeyReplica!.dependencies).toContain(data);
    const replica = replicaTemplate();
    const [[replicaId, key], ...others] = ofType(replica, 'AWS::KMS::ReplicaKey') as [[string, Resource], ...[string, Resource][]];
    expect(others).toEqual([]);
    const primary = ofType(template, 'AWS::KMS::Key')[1]![1];
    expect(key!.Properties).toMatchObject({ PrimaryKeyArn: { Ref: 'PrimaryKeyArn' }, KeyPolicy: primary.Properties.KeyPolicy });
    expect([key!.DeletionPolicy, key!.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    expect(ofType(replica, 'AWS::KMS::Alias').map(([, alias]) => alias.Properties)).toEqual([{ AliasName: multiRegionSealingKeyAlias('sales-pipeline'), TargetKeyId: { 'Fn::GetAtt': [replicaId, 'KeyId'] } }]);
  });

  it('takes only a multi-region key’s ARN as the primary: no default, a single-region key or a near miss refused before anything changes', () => {
    const parameter = replicaTemplate().Parameters!.PrimaryKeyArn;
    expect(parameter.Default).toBeUndefined();
    const accepts = (arn: string) => new RegExp(parameter.AllowedPattern).test(arn);
    const mrk = 'arn:aws:kms:ap-southeast-2:123456789012:key/mrk-0123456789abcdef0123456789abcdef';
    expect(accepts(mrk)).toBe(true);
    expect(accepts('arn:aws:kms:ap-southeast-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab')).toBe(false);
    expect(accepts(`${mrk}0`)).toBe(false);
    expect(accepts(mrk.slice(0, -1))).toBe(false);
    expect(accepts('arn:aws:kms:ap-southeast-2:123456789012:alias/sales-pipeline-secrets-multi-region')).toBe(false);
  });

  it.each([['ap-southeast4'], ['Melbourne'], ['ap-southeast-4 ']])('refuses %j at synth, naming the option', (region) => {
    expect(() => dataTemplate({ secretsKeyReplicaRegion: region })).toThrow(/secretsKeyReplicaRegion/);
  });
});
