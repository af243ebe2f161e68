import { Privilege } from '@mds/auth';
import { isJsonObject, parseUrn, UrnError } from '@mds/core';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { editPrivileges, type EntityReader, type EntityService, type Grant } from '../service';
import { entityTypeOf, graphqlReader, writeCreate } from './mutation-support';
import { creatorOwnership } from './ownership';
import { entityRef } from './typenames';

type Aspect = Record<string, unknown>;
/** Who manages the data products of a domain (DataHub's isAuthorizedToManageDataProducts, asked on the domain). */
const MANAGE = editPrivileges([Privilege.MANAGE_DATA_PRODUCTS]);
/** Who puts an entity in a data product (isAuthorizedToUpdateDataProductsForEntity, asked on the entity). */
const EDIT_FOR_ENTITY = [Privilege.EDIT_ENTITY_DATA_PRODUCTS];

const assetsOf = (properties: Aspect | undefined): Aspect[] =>
  Array.isArray(properties?.assets) ? properties.assets.filter(isJsonObject) : [];

/** Whether `id` makes a well-formed data product urn of exactly that id. */
function isProductId(id: string): boolean {
  try {
    const parsed = parseUrn(`urn:li:dataProduct:${id}`);
    return parsed.parts.length === 1 && parsed.parts[0] === id;
  } catch (error) {
    if (error instanceof UrnError) return false;
    throw error;
  }
}

/**
 * Data products' edits (DataHub's CreateDataProductResolver, UpdateDataProductResolver, DeleteDataProductResolver,
 * BatchSetDataProductResolver over its DataProductService): a product's assets are its `dataProductProperties.assets`
 * (each with the stamp of whoever added it), its domain its `domains`. Managing a product asks EDIT_ENTITY or
 * MANAGE_DATA_PRODUCTS on its domain, and the same on the product itself for the grant that writes it.
 */
export function dataProductMutationResolvers(service: EntityService, now: () => number): MutationResolvers {
  /** The first domain of a stored product (DataHub allows one). */
  const domainOf = async (reader: EntityReader, urn: string) => {
    const domains = (await reader.latest([urn], ['domains'])).get(urn)?.get('domains')?.value.domains;
    return Array.isArray(domains) && typeof domains[0] === 'string' ? domains[0] : undefined;
  };
  /**
   * A grant to write `product`: who edits the product itself (isAuthorizedToEditDataProduct), or who manages the
   * products of its domain (asked on the domain and on the product, so the grant covers what is written).
   */
  const authorizeManage = async (actor: Actor, product: string, domain: string | undefined): Promise<Grant> => {
    if (!domain || (await service.allows(actor, editPrivileges([]), product))) return service.authorizeEdit(actor, [product], []);
    return service.authorize(actor, MANAGE, [domain, product]);
  };
  const updateProperties = async (grant: Grant, urn: string, change: (current: Aspect) => Aspect, absent: string) => {
    await service.update(
      grant,
      { urn, aspect: 'dataProductProperties' },
      (current) => {
        if (!current) throw badRequest(absent);
        return change(current);
      },
      { time: now() },
    );
  };

  return {
    createDataProduct: async (_parent, { input }, { actor }) => {
      const reader = graphqlReader(service, actor);
      if ((await entityTypeOf(reader, input.domainUrn)) !== 'domain') throw badRequest('The Domain provided dos not exist');
      const id = input.id ?? randomUUID();
      if (!isProductId(id)) throw badRequest(`Invalid data product id: ${JSON.stringify(id)}`);
      const urn = `urn:li:dataProduct:${id}`;
      if (await reader.exists(urn)) throw badRequest('This Data product already exists!');
      const grant = await service.authorize(actor, MANAGE, [input.domainUrn, urn]);
      const stamp = { time: now(), actor: actor.urn };
      const { name, description } = input.properties;
      await writeCreate(
        service,
        grant,
        [
          {
            urn,
            aspect: 'dataProductProperties',
            changeType: 'CREATE_ENTITY',
            value: { name, ...(description == null ? {} : { description }) },
          },
          { urn, aspect: 'domains', changeType: 'UPSERT', value: { domains: [input.domainUrn] } },
          { urn, aspect: 'ownership', changeType: 'UPSERT', value: creatorOwnership(stamp) },
        ],
        stamp,
        'This Data product already exists!',
      );
      return entityRef(urn) ?? null;
    },

    updateDataProduct: async (_parent, { urn, input }, { actor }) => {
      const reader = graphqlReader(service, actor);
      if ((await entityTypeOf(reader, urn)) !== 'dataProduct') throw badRequest('The Data Product provided dos not exist');
      const grant = await authorizeManage(actor, urn, await domainOf(reader, urn));
      await updateProperties(
        grant,
        urn,
        (current) => ({
          ...current,
          ...(input.name == null ? {} : { name: input.name }),
          ...(input.description == null ? {} : { description: input.description }),
        }),
        `Failed to update DataProduct. DataProduct with urn ${urn} does not exist.`,
      );
      return entityRef(urn) ?? null;
    },

    deleteDataProduct: async (_parent, { urn }, { actor }) => {
      const reader = graphqlReader(service, actor);
      if ((await entityTypeOf(reader, urn)) !== 'dataProduct') throw badRequest('The Data Product provided dos not exist');
      const domain = await domainOf(reader, urn);
      // A product in a domain needs who manages the domain's products (DataHub's check); one in none an editor of it.
      const grant = domain ? await service.authorize(actor, MANAGE, [domain, urn]) : await service.authorizeEdit(actor, [urn], []);
      // Its assets are listed in its own properties, so nothing else names it: the delete removes every edge.
      await service.deleteEntity(grant, urn);
      return true;
    },

    batchSetDataProduct: async (_parent, { input }, { actor }) => {
      const reader = graphqlReader(service, actor);
      for (const resource of input.resourceUrns) {
        if (!(await entityTypeOf(reader, resource)))
          throw badRequest(`Failed to batch set Data Product, ${resource} in resources does not exist`);
      }
      await service.authorizeEdit(actor, input.resourceUrns, EDIT_FOR_ENTITY);
      const product = input.dataProductUrn;
      if (product && (await entityTypeOf(reader, product)) !== 'dataProduct')
        throw badRequest(`Failed to batch set Data Product, Data Product urn ${product} does not exist`);
      // What is written is the products' own assets: the grant covers them too.
      const products = product
        ? [product]
        : [
            ...new Set(
              (await Promise.all(input.resourceUrns.map((r) => reader.referencesTo(r, 'DataProductContains'))))
                .flat()
                .map((ref) => ref.urn),
            ),
          ];
      const grant = await service.authorizeEdit(actor, [...input.resourceUrns, ...products], EDIT_FOR_ENTITY);
      const stamp = { time: now(), actor: actor.urn };
      const resources = new Set(input.resourceUrns);
      for (const urn of products) {
        await updateProperties(
          grant,
          urn,
          (current) => {
            const assets = assetsOf(current);
            // Unset: each resource leaves the products listing it. Set: the new ones are appended, with the caller's stamp.
            if (!product) return { ...current, assets: assets.filter((a) => !resources.has(a.destinationUrn as string)) };
            const listed = new Set(assets.map((a) => a.destinationUrn));
            const added = [...resources].filter((r) => !listed.has(r));
            return {
              ...current,
              assets: [...assets, ...added.map((destinationUrn) => ({ destinationUrn, created: stamp, lastModified: stamp }))],
            };
          },
          product
            ? 'Failed to batch set data product as data product does not exist'
            : 'Failed to unset data product as data product does not exist',
        );
      }
      return true;
    },
  };
}
