import { ROOT_ACTOR_URN } from '@mds/auth';
import { print } from 'graphql';
import { readFileSync } from 'node:fs';
import type { UiOperation } from './ui-documents';

/** The variables DataHub's web UI sends with each query, read from its source (fixtures/datahub-web-react/variables.json). */
export const UI_VARIABLES = new URL('../fixtures/datahub-web-react/variables.json', import.meta.url);

/** One way a page sends an operation: its variables (with placeholders), the UI source file, and what the page decides. */
export interface UiCall {
  variables: Record<string, unknown>;
  /** The file under datahub-web-react/src that sends it; null when no page sends the operation. */
  from: string | null;
  note?: string;
}

export interface UiVariables {
  /** Placeholder (`$DATASET_URN`) → what it stands for. */
  placeholders: Record<string, string>;
  queries: Record<string, UiCall[]>;
  mutations: Record<string, UiCall[]>;
}

export const readUiVariables = (): UiVariables => JSON.parse(readFileSync(UI_VARIABLES, 'utf8')) as UiVariables;
let read: UiVariables | undefined;

/**
 * The variables of the UI's `index`th call of the query or mutation `name`, every placeholder filled: with `values`
 * first, then with what it stands for in DataHub's bootstrap sample (`bootstrapPlaceholders`). For tests that send one
 * of the UI's operations the way its page does.
 */
export function uiCallVariables(
  kind: 'queries' | 'mutations',
  name: string,
  values: Record<string, unknown> = {},
  index = 0,
): Record<string, any> {
  read ??= readUiVariables();
  const call = read[kind][name]?.[index];
  if (!call) throw new Error(`variables.json has no call ${index} of ${name}`);
  return fillPlaceholders(call.variables, { ...bootstrapPlaceholders().values, ...values }) as Record<string, any>;
}

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const DAY_MS = 86_400_000;

/**
 * Values for every placeholder over DataHub's bootstrap sample (`bootstrap_mce.json`, as `ingestSampleData` writes it).
 * `absent` names the placeholders the sample has no entity for: they get a well-formed urn of an entity that is not
 * stored, which a query must answer as DataHub does for a missing entity (null or empty), never with an error.
 */
export function bootstrapPlaceholders(now = Date.now()): { values: Record<string, unknown>; absent: string[] } {
  const present: Record<string, unknown> = {
    $ME_URN: ROOT_ACTOR_URN,
    $USER_URN: 'urn:li:corpuser:jdoe',
    $GROUP_URN: 'urn:li:corpGroup:bfoo',
    $DATASET_URN: HIVE,
    $UPSTREAM_DATASET_URN: 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)',
    $SCHEMA_FIELD_URN: `urn:li:schemaField:(${HIVE},field_foo)`,
    $CHART_URN: 'urn:li:chart:(looker,baz1)',
    $DASHBOARD_URN: 'urn:li:dashboard:(looker,baz)',
    $DATA_FLOW_URN: 'urn:li:dataFlow:(airflow,dag_abc,PROD)',
    $DATA_JOB_URN: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)',
    $CONTAINER_URN: 'urn:li:container:DATABASE',
    $DATA_PLATFORM_URN: 'urn:li:dataPlatform:hive',
    $GLOSSARY_TERM_URN: 'urn:li:glossaryTerm:CustomerAccount',
    $OTHER_GLOSSARY_TERM_URN: 'urn:li:glossaryTerm:SavingAccount',
    $GLOSSARY_NODE_URN: 'urn:li:glossaryNode:ClientsAndAccounts',
    $TAG_URN: 'urn:li:tag:Legacy',
    $ML_MODEL_URN: 'urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)',
    $ML_FEATURE_URN: 'urn:li:mlFeature:(test_feature_table_all_feature_dtypes,test_BOOL_feature)',
    $ML_FEATURE_TABLE_URN: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,test_feature_table_all_feature_dtypes)',
    $ML_PRIMARY_KEY_URN: 'urn:li:mlPrimaryKey:(test_feature_table_all_feature_dtypes,dummy_entity_1)',
    $TEST_URN: 'urn:li:test:953001aa-fb7b-4a43-916f-3efd95ab9047',
    $NOW_MS: now,
    $NOW_MS_MINUS_30_DAYS: now - 30 * DAY_MS,
  };
  const missing: Record<string, unknown> = {
    $DOMAIN_URN: 'urn:li:domain:marketing',
    $DATA_PRODUCT_URN: 'urn:li:dataProduct:customer_360',
    $APPLICATION_URN: 'urn:li:application:billing',
    $ML_MODEL_GROUP_URN: 'urn:li:mlModelGroup:(urn:li:dataPlatform:science,scienceGroup,PROD)',
    $DATA_PROCESS_INSTANCE_URN: 'urn:li:dataProcessInstance:run_1',
    $QUERY_URN: 'urn:li:query:query_1',
    $ER_MODEL_RELATIONSHIP_URN: 'urn:li:erModelRelationship:rel_1',
    $BUSINESS_ATTRIBUTE_URN: 'urn:li:businessAttribute:attribute_1',
    $STRUCTURED_PROPERTY_URN: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime',
    $ASSERTION_URN: 'urn:li:assertion:assertion_1',
    $INGESTION_SOURCE_URN: 'urn:li:dataHubIngestionSource:source_1',
    $EXECUTION_REQUEST_URN: 'urn:li:dataHubExecutionRequest:request_1',
    $VIEW_URN: 'urn:li:dataHubView:view_1',
    $ROLE_URN: 'urn:li:dataHubRole:Reader',
    $EXTERNAL_ROLE_URN: 'urn:li:role:reader',
    $VERSION_SET_URN: 'urn:li:versionSet:(set_1,dataset)',
    $CONNECTION_URN: 'urn:li:dataHubConnection:connection_1',
    $SCHEMA_VERSION: '1.0.0',
    $SCHEMA_VERSION_STAMP: 'schemaMetadata:0',
    $ACCESS_TOKEN_ID: 'token_1',
    $SECRET_URN: 'urn:li:dataHubSecret:MYSQL_PASSWORD',
    $RUN_ID: 'run_1',
    $INVITE_TOKEN: 'invite_1',
    $POST_URN: 'urn:li:post:post_1',
    $POLICY_URN: 'urn:li:dataHubPolicy:policy_1',
    $OWNERSHIP_TYPE_URN: 'urn:li:ownershipType:steward',
    $INCIDENT_URN: 'urn:li:incident:incident_1',
    $FORM_URN: 'urn:li:form:form_1',
    $PAGE_TEMPLATE_URN: 'urn:li:dataHubPageTemplate:template_1',
    $PAGE_MODULE_URN: 'urn:li:dataHubPageModule:module_1',
  };
  return { values: { ...present, ...missing }, absent: Object.keys(missing) };
}

const PLACEHOLDER = /\$[A-Z][A-Z0-9_]*/g;

/**
 * Replaces the placeholders in a variables object: a string that is exactly one takes its value (a number stays a
 * number); one inside a string is replaced by its text. An unknown placeholder throws, naming it.
 */
export function fillPlaceholders(value: unknown, values: Record<string, unknown>): unknown {
  const valueOf = (name: string) => {
    if (!(name in values)) throw new Error(`no value for the placeholder ${name}`);
    return values[name];
  };
  if (typeof value === 'string') {
    if (/^\$[A-Z][A-Z0-9_]*$/.test(value)) return valueOf(value);
    return value.replace(PLACEHOLDER, (name) => String(valueOf(name)));
  }
  if (Array.isArray(value)) return value.map((item) => fillPlaceholders(item, values));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillPlaceholders(item, values)]));
  }
  return value;
}

/** The placeholders a variables object uses. */
export const placeholdersIn = (value: unknown): string[] => [...new Set(JSON.stringify(value).match(PLACEHOLDER) ?? [])];

/** What a GraphQL client sends: a POST to /api/graphql with a bearer token, answering the status and the parsed body. */
export type GraphQLPoster = (body: { query: string; operationName: string; variables: Record<string, unknown> }) => Promise<{
  status: number;
  body: { data?: unknown; errors?: { message: string }[] } | undefined;
}>;

/**
 * Sends one of the UI's operations as the UI does: the operation with every fragment it uses as one document, its
 * name as `operationName`, and the call's variables with the placeholders filled.
 */
export function runUiOperation(post: GraphQLPoster, op: UiOperation, call: UiCall, values: Record<string, unknown>) {
  return post({
    query: print(op.document),
    operationName: op.name,
    variables: fillPlaceholders(call.variables, values) as Record<string, unknown>,
  });
}
