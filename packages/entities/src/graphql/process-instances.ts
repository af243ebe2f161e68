import { COMMON_RULES } from './common';
import { refWithKey } from './common-fields';
import { ASSET_FIELDS } from './asset-fields';
import { badRequest, type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import type { GraphQLResolveInfo } from 'graphql';
import type { EntityService } from '../service';
import { commonFields, text, type Loaders } from './common-fields';
import { toGraphQL, type TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping, type EntityScope } from './mapping/declare';
import { graphqlReader } from './mutation-support';
import { rootQuery } from './root-queries';

/** DataHub's time-series reads' default `limit`. */
const DEFAULT_LIMIT = 10_000;

const PROPERTIES = 'dataProcessInstanceProperties';
const property = (field: string) => (entity: EntityScope) => entity.value(PROPERTIES)?.[field];

/** How a run's records differ from their GraphQL types (DataHub's DataProcessInstance mappers). */
export const PROCESS_INSTANCE_RULES: TypeRules = {
  DataProcessInstanceRunResult: { resultType: 'type' },
};

/** `DataProcessInstance` from its aspects (DataHub's DataProcessInstanceMapper). */
export const PROCESS_INSTANCE_MAPPING: EntityMapping = {
  entity: 'dataProcessInstance',
  fields: {
    ...ASSET_FIELDS,
    name: property('name'),
    externalUrl: property('externalUrl'),
    created: property('created'),
    properties: PROPERTIES,
    mlTrainingRunProperties: 'mlTrainingRunProperties',
    subTypes: 'subTypes',
    parentTemplate: (entity) => entity.value('dataProcessInstanceRelationships')?.parentTemplate,
  },
};

interface StateArgs {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  limit?: number | null;
}

/** `dataProcessInstance(urn:)` and the fields of `DataProcessInstance`, its run events read from the time-series store. */
export function processInstanceResolvers(service: EntityService, loaders: Loaders): Resolvers {
  const common = commonFields(loaders);
  const state = async (parent: EntityParent, args: StateArgs, context: ApiContext, info: GraphQLResolveInfo) => {
    const limit = args.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1) throw badRequest("'limit' must be a positive integer");
    const points = await graphqlReader(service, context.actor).points({
      entityType: 'dataProcessInstance',
      aspect: 'dataProcessInstanceRunEvent',
      urn: parent.urn,
      startTimeMillis: args.startTimeMillis ?? undefined,
      endTimeMillis: args.endTimeMillis ?? undefined,
      limit,
    });
    const newestFirst = points.sort((a, b) => Number(b.timestampMillis) - Number(a.timestampMillis));
    return toGraphQL(newestFirst, info.returnType, { urn: parent.urn, schema: info.schema, rules: PROCESS_INSTANCE_RULES });
  };
  const platform = async (parent: EntityParent, _args: unknown, context: ApiContext) => {
    const urn = text((await loaders(context).aspects(parent.urn))?.get('dataPlatformInstance')?.value.platform);
    return urn ? ((refWithKey(urn) as EntityParent | undefined) ?? null) : null;
  };
  const mapping: EntityMapping = {
    ...PROCESS_INSTANCE_MAPPING,
    resolvers: { exists: common.exists, status: common.status, platform, state },
  };
  return {
    ...entityTypeResolvers(loaders, [mapping], { rules: { ...COMMON_RULES, ...PROCESS_INSTANCE_RULES }, ref: refWithKey }),
    Query: { dataProcessInstance: rootQuery(loaders, 'dataProcessInstance') },
  };
}
