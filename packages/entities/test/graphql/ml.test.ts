import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's cypress sample (cypress_data.json): a SageMaker model, its group, a feature table with a feature and a key.
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,cypress-model,PROD)';
const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,cypress-model-package-group,PROD)';
const FEATURE = 'urn:li:mlFeature:(cypress-test-2,some-cypress-feature-1)';
const KEY = 'urn:li:mlPrimaryKey:(cypress-test-2,some-cypress-feature-2)';
const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:sagemaker,cypress-feature-table)';
const isMl = (urn: string) => /^urn:li:ml/.test(urn);

// The fields of the UI's nonRecursiveMLModel / getMLModel (mlModel.graphql, fragments.graphql) that mds declares so far.
const GET_ML_MODEL = `query getMLModel($urn: String!) {
  mlModel(urn: $urn) {
    urn type exists name description origin
    platform { urn name }
    properties {
      name description date created { time actor } lastModified { time actor } externalUrl version type
      trainingMetrics { name description value } hyperParams { name description value } mlFeatures
      groups { urn name description properties { name } editableProperties { description } }
      customProperties { key value } mlModelLineageInfo { trainingJobs downstreamJobs }
    }
    globalTags { tags { tag { urn } } } tags { tags { tag { urn } } }
    status { removed } editableProperties { description } deprecation { deprecated }
    features: relationships(input: { types: ["Consumes"], direction: OUTGOING, start: 0, count: 100 }) {
      start count total relationships { type direction entity { ... on MLFeature { urn name featureNamespace } } }
    }
  }
}`;

describe("ML entities, as DataHub's ML mappers give them", () => {
  it('getMLModel: the key, mlModelProperties (name backfilled from the key, lineage info always), the features it consumes', async () => {
    const { run } = await goldenGraphql(databases, ['cypress_data.json'], { keep: isMl });
    const { data, errors } = await run(GET_ML_MODEL, { urn: MODEL });
    expect(errors).toBeUndefined();
    expect(data!.mlModel).toEqual({
      urn: MODEL,
      type: 'MLMODEL',
      exists: true,
      name: 'cypress-model',
      description: 'ml model description',
      origin: 'PROD',
      platform: { urn: 'urn:li:dataPlatform:sagemaker', name: 'sagemaker' },
      properties: {
        name: 'cypress-model',
        description: 'ml model description',
        date: 1420070400000,
        created: null,
        lastModified: null,
        externalUrl: 'https://us-west-2.console.aws.amazon.com/sagemaker/home?region=us-west-2#/models/the-first-model',
        version: null,
        type: null,
        trainingMetrics: [{ name: 'another-metric', description: null, value: '1.0' }],
        hyperParams: [{ name: 'parameter-1', description: null, value: 'some-value' }],
        mlFeatures: [FEATURE],
        groups: [
          {
            urn: GROUP,
            name: 'cypress-model-package-group',
            description: 'Just a model package group.',
            properties: { name: 'cypress-model-package-group' },
            editableProperties: null,
          },
        ],
        customProperties: [{ key: 'EnableNetworkIsolation', value: 'True' }],
        mlModelLineageInfo: { trainingJobs: [], downstreamJobs: [] },
      },
      globalTags: null,
      tags: null,
      status: null,
      editableProperties: null,
      deprecation: null,
      features: {
        start: 0,
        count: 1,
        total: 1,
        relationships: [
          {
            type: 'Consumes',
            direction: 'OUTGOING',
            entity: { urn: FEATURE, name: 'some-cypress-feature-1', featureNamespace: 'cypress-test-2' },
          },
        ],
      },
    });
  });

  it('getMLModelGroup, getMLFeature, getMLPrimaryKey, getMLFeatureTable: each from its key and properties aspect', async () => {
    const { run } = await goldenGraphql(databases, ['cypress_data.json'], { keep: isMl });
    const { data, errors } = await run(
      `query ($group: String!, $feature: String!, $key: String!, $table: String!) {
        mlModelGroup(urn: $group) {
          name origin platform { name } description
          properties { name description createdAt version { versionTag } customProperties { key } mlModelLineageInfo { trainingJobs } }
          ownership { owners { owner { ... on CorpUser { urn } } } }
          incoming: relationships(input: { types: ["MemberOf"], direction: INCOMING, start: 0, count: 100 }) {
            total relationships { entity { urn type } }
          }
        }
        mlFeature(urn: $feature) {
          name featureNamespace description dataType
          properties { description dataType version { versionTag } sources { urn name } }
          tags { tags { tag { urn } } }
          featureTables: relationships(input: { types: ["Contains"], direction: INCOMING, start: 0, count: 100 }) {
            total relationships { entity { ... on MLFeatureTable { urn name platform { name } } } }
          }
        }
        mlPrimaryKey(urn: $key) { name featureNamespace description dataType properties { description dataType sources { urn } } }
        mlFeatureTable(urn: $table) {
          name platform { urn } description
          properties { description mlFeatures { urn name } mlPrimaryKeys { urn name } customProperties { key value } }
        }
      }`,
      { group: GROUP, feature: FEATURE, key: KEY, table: TABLE },
    );
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      mlModelGroup: {
        name: 'cypress-model-package-group',
        origin: 'PROD',
        platform: { name: 'sagemaker' },
        description: 'Just a model package group.',
        properties: {
          name: 'cypress-model-package-group',
          description: 'Just a model package group.',
          createdAt: 1420070400000,
          version: null,
          customProperties: [
            { key: 'ModelPackageGroupArn' },
            { key: 'ModelPackageGroupDescription' },
            { key: 'CreatedBy' },
            { key: 'ModelPackageGroupStatus' },
          ],
          mlModelLineageInfo: { trainingJobs: null },
        },
        ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:some-user' } }] },
        incoming: { total: 1, relationships: [{ entity: { urn: MODEL, type: 'MLMODEL' } }] },
      },
      mlFeature: {
        name: 'some-cypress-feature-1',
        featureNamespace: 'cypress-test-2',
        description: null,
        dataType: 'TEXT',
        properties: {
          description: null,
          dataType: 'TEXT',
          version: null,
          sources: [
            { urn: 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleCypressKafkaDataset,PROD)', name: 'SampleCypressKafkaDataset' },
          ],
        },
        tags: { tags: [{ tag: { urn: 'urn:li:tag:CypressFeatureTag' } }] },
        featureTables: {
          total: 1,
          relationships: [{ entity: { urn: TABLE, name: 'cypress-feature-table', platform: { name: 'sagemaker' } } }],
        },
      },
      mlPrimaryKey: {
        name: 'some-cypress-feature-2',
        featureNamespace: 'cypress-test-2',
        description: 'this is a description from source system',
        dataType: 'ORDINAL',
        properties: {
          description: 'this is a description from source system',
          dataType: 'ORDINAL',
          sources: [{ urn: 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleCypressHdfsDataset,PROD)' }],
        },
      },
      mlFeatureTable: {
        name: 'cypress-feature-table',
        platform: { urn: 'urn:li:dataPlatform:sagemaker' },
        description: 'Yet another test feature group',
        properties: {
          description: 'Yet another test feature group',
          mlFeatures: [{ urn: FEATURE, name: 'some-cypress-feature-1' }],
          mlPrimaryKeys: [{ urn: KEY, name: 'some-cypress-feature-2' }],
          customProperties: [
            { key: 'arn', value: 'arn:aws:sagemaker:us-west-2:123412341234:feature-group/test-2' },
            { key: 'creation_time', value: '2021-06-24 09:48:37.035000' },
            { key: 'status', value: 'Created' },
          ],
        },
      },
    });
  });

  it("a model card's aspects, written as DataHub documents them: unions of primitives become their boxes", async () => {
    const { run, entities } = await goldenGraphql(databases, ['cypress_data.json'], { keep: isMl });
    const card: Record<string, unknown> = {
      intendedUse: { primaryUses: ['churn'], primaryUsers: ['ENTERPRISE'], outOfScopeUses: ['credit'] },
      mlModelFactorPrompts: { relevantFactors: [{ groups: ['age'] }], evaluationFactors: [] },
      mlModelMetrics: { performanceMeasures: ['auc'], decisionThreshold: ['0.5'] },
      mlModelEvaluationData: {
        evaluationData: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,eval,PROD)', motivation: 'held out' }],
      },
      mlModelTrainingData: {
        trainingData: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,train,PROD)', preProcessing: ['dedup'] }],
      },
      mlModelQuantitativeAnalyses: { unitaryResults: { string: 'auc 0.91' } },
      mlModelEthicalConsiderations: { data: ['none'], risksAndHarms: [] },
      mlModelCaveatsAndRecommendations: { caveats: { needsFurtherTesting: true }, recommendations: 'retrain monthly' },
      sourceCode: { sourceCode: [{ type: 'ML_MODEL_SOURCE_CODE', sourceCodeUrl: 'https://git/model' }] },
      cost: { costType: 'ORG_COST_TYPE', cost: { costCode: 'ml-team' } },
      editableMlModelProperties: { description: 'edited' },
    };
    const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, [MODEL], []);
    await entities.service.write(
      grant,
      Object.entries(card).map(([aspect, value]) => ({ urn: MODEL, aspect, changeType: 'UPSERT' as const, value: value as never })),
    );
    const { data, errors } = await run(
      `query ($urn: String!) { mlModel(urn: $urn) {
        intendedUse { primaryUses primaryUsers outOfScopeUses }
        factorPrompts { relevantFactors { groups instrumentation } evaluationFactors { groups } }
        metrics { performanceMeasures decisionThreshold }
        evaluationData { dataset motivation preProcessing }
        trainingData { dataset motivation preProcessing }
        quantitativeAnalyses { unitaryResults { ... on StringBox { stringValue } } intersectionalResults { __typename } }
        ethicalConsiderations { data risksAndHarms useCases }
        caveatsAndRecommendations { caveats { needsFurtherTesting caveatDescription } recommendations }
        sourceCode { sourceCode { type sourceCodeUrl } }
        cost { costType costValue { costId costCode } }
        editableProperties { description }
      } }`,
      { urn: MODEL },
    );
    expect(errors).toBeUndefined();
    expect(data!.mlModel).toEqual({
      intendedUse: { primaryUses: ['churn'], primaryUsers: ['ENTERPRISE'], outOfScopeUses: ['credit'] },
      factorPrompts: { relevantFactors: [{ groups: ['age'], instrumentation: null }], evaluationFactors: [] },
      metrics: { performanceMeasures: ['auc'], decisionThreshold: ['0.5'] },
      evaluationData: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,eval,PROD)', motivation: 'held out', preProcessing: null }],
      trainingData: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,train,PROD)', motivation: null, preProcessing: ['dedup'] }],
      quantitativeAnalyses: { unitaryResults: { stringValue: 'auc 0.91' }, intersectionalResults: null },
      ethicalConsiderations: { data: ['none'], risksAndHarms: [], useCases: null },
      caveatsAndRecommendations: { caveats: { needsFurtherTesting: true, caveatDescription: null }, recommendations: 'retrain monthly' },
      sourceCode: { sourceCode: [{ type: 'ML_MODEL_SOURCE_CODE', sourceCodeUrl: 'https://git/model' }] },
      cost: { costType: 'ORG_COST_TYPE', costValue: { costId: null, costCode: 'ml-team' } },
      editableProperties: { description: 'edited' },
    });
  });

  it('a root query answers null for an absent entity or another type’s urn, and a 400 for a malformed urn', async () => {
    const { run } = await goldenGraphql(databases, ['cypress_data.json'], { keep: isMl });
    const absent = await run(
      `{ mlModel(urn: "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,nope,PROD)") { urn } mlFeature(urn: "${MODEL}") { urn } }`,
    );
    expect(absent).toEqual({ data: { mlModel: null, mlFeature: null } });
    const bad = await run(`{ mlPrimaryKey(urn: "not-a-urn") { urn } }`);
    expect(bad.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([['Invalid urn: not-a-urn', 400]]);
  });
});
