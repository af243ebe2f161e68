import { randomUUID } from 'node:crypto';
import { Privilege } from '@mds/auth';
import type { ApiContext, EntityParent, Resolvers } from '@mds/schema';
import { badRequest } from '@mds/schema';
import type { EntityService } from '../service';
import { editPrivileges } from '../service/policy';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { refWithKey, urnArgument, type Loaders } from './common-fields';
import type { TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeAll } from './mutation-support';

/** DataHub's data contract edits: EDIT_ENTITY, or EDIT_ENTITY_DATA_CONTRACT, on the asset. */
const EDIT_CONTRACT = editPrivileges([Privilege.EDIT_ENTITY_DATA_CONTRACT]);
const KINDS = ['freshness', 'schema', 'dataQuality'] as const;

/** dataContractProperties names its asset `entity` (DataHub's DataContractMapper). */
export const CONTRACT_RULES: TypeRules = { DataContractProperties: { entityUrn: 'entity' } };

/** `DataContract` from its dataContractProperties, dataContractStatus and structuredProperties aspects. */
export const CONTRACT_MAPPING: EntityMapping = {
  entity: 'dataContract',
  fields: { properties: 'dataContractProperties', status: 'dataContractStatus', structuredProperties: COMMON_FIELDS.structuredProperties },
};

/** The contract of an asset: the first of its ContractFor edges (DataHub reads one). */
async function contractOf(service: EntityService, urn: string, context: ApiContext): Promise<string | undefined> {
  const edges = await graphqlReader(service, context.actor).relationships(urn, {
    direction: 'INCOMING',
    types: ['ContractFor'],
    start: 0,
    count: 1,
  });
  return edges.relationships[0]?.entity;
}

interface ContractInput {
  entityUrn: string;
  id?: string | null;
  state?: string | null;
  freshness?: readonly { assertionUrn: string }[] | null;
  schema?: readonly { assertionUrn: string }[] | null;
  dataQuality?: readonly { assertionUrn: string }[] | null;
}

/** `DataContract`, `Dataset.contract` (EntityDataContractResolver) and `upsertDataContract` (UpsertDataContractResolver). */
export function contractResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers {
  const contract = async (parent: EntityParent, _args: unknown, context: ApiContext) => {
    const urn = await contractOf(service, parent.urn, context);
    return urn && (await loaders(context).aspects(urn))?.has('dataContractKey')
      ? { __typename: 'DataContract', urn, type: 'DATA_CONTRACT' }
      : null;
  };

  const upsertDataContract = async (_parent: unknown, { input }: { input: ContractInput }, context: ApiContext) => {
    const { actor } = context;
    urnArgument(input.entityUrn);
    await service.authorize(actor, EDIT_CONTRACT, [input.entityUrn]);
    const reader = graphqlReader(service, actor);
    if (!(await reader.exists(input.entityUrn))) throw badRequest(`Provided entity with urn ${input.entityUrn} does not exist!`);
    for (const kind of KINDS) {
      for (const { assertionUrn } of input[kind] ?? []) {
        urnArgument(assertionUrn);
        if (!(await reader.exists(assertionUrn))) throw badRequest(`Provided assertion with urn ${assertionUrn} does not exist!`);
      }
    }
    // The asset's contract is replaced in place; a first one takes the given id, or a random one.
    const urn = (await contractOf(service, input.entityUrn, context)) ?? `urn:li:dataContract:${input.id ?? randomUUID()}`;
    if (urnArgument(urn).entityType !== 'dataContract') throw badRequest(`Invalid data contract id: ${input.id}`);
    const properties = {
      entity: input.entityUrn,
      ...Object.fromEntries(
        KINDS.flatMap((kind) => (input[kind] ? [[kind, input[kind].map((c) => ({ assertion: c.assertionUrn }))]] : [])),
      ),
    };
    const grant = await service.authorizeFor(actor, EDIT_CONTRACT, [input.entityUrn], [urn]);
    await writeAll(
      service,
      grant,
      [
        { urn, aspect: 'dataContractProperties', changeType: 'UPSERT', value: properties },
        { urn, aspect: 'dataContractStatus', changeType: 'UPSERT', value: { state: input.state ?? 'ACTIVE' } },
      ],
      { time: now() },
    );
    return { __typename: 'DataContract', urn, type: 'DATA_CONTRACT' };
  };

  return {
    ...entityTypeResolvers(loaders, [CONTRACT_MAPPING], { rules: { ...COMMON_RULES, ...CONTRACT_RULES }, ref: refWithKey }),
    Dataset: { contract },
    Mutation: { upsertDataContract },
  };
}
