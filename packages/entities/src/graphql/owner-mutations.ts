import { Privilege } from '@mds/auth';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import type { Edit, EntityReader, EntityService } from '../service';
import { entityTypeOf, graphqlReader, pointer, writeAll } from './mutation-support';
import { systemTypeUrn } from './ownership';

interface OwnerInput {
  ownerUrn: string;
  ownerEntityType: string;
  type?: string | null;
  ownershipTypeUrn?: string | null;
}

const OWNERS = [Privilege.EDIT_ENTITY_OWNERS];
const FAILED = 'Failed to change ownership for resource(s).';
/** The owner entries are keyed by owner and ownership type urn, as an add replaces the entry of the same pair. */
const KEYS = { owners: ['owner', 'typeUrn'] };

/**
 * `addOwner(s)`, `removeOwner`, `batchAddOwners`, `batchRemoveOwners` (entities-api §10): privileges, then owners
 * (O2-O6) and resources (O1) checked before anything is written, then one write of PATCHes applied inside its
 * transaction. An added owner is `{owner, type, typeUrn, source: {type: MANUAL}}`; `lastModified` is the caller's
 * stamp.
 */
export function ownerMutationResolvers(service: EntityService, now: () => number): MutationResolvers {
  const checkOwner = async (reader: EntityReader, owner: OwnerInput) => {
    const { ownerUrn, ownerEntityType, type, ownershipTypeUrn } = owner;
    if (ownerEntityType === 'CORP_USER' && !ownerUrn.startsWith('urn:li:corpuser:'))
      throw badRequest(`${FAILED} Expected a corp user urn, found ${ownerUrn}.`);
    if (ownerEntityType === 'CORP_GROUP' && !ownerUrn.startsWith('urn:li:corpGroup:'))
      throw badRequest(`${FAILED} Expected a corp group urn, found ${ownerUrn}`);
    if (!(await reader.exists(ownerUrn))) throw badRequest(`${FAILED} Owner with urn ${ownerUrn} does not exist.`);
    if (!type && !ownershipTypeUrn) throw badRequest(`${FAILED} Expected either type or ownershipTypeUrn to be specified.`);
    if (ownershipTypeUrn && !ownershipTypeUrn.startsWith('urn:li:ownershipType:__system__') && !(await reader.exists(ownershipTypeUrn))) {
      throw badRequest(`${FAILED} Custom Ownership type with urn ${ownershipTypeUrn} does not exist.`);
    }
  };
  /** The PATCH of `ops` on the ownership of each resource, after checking each exists (O1). */
  const patches = async (reader: EntityReader, urns: readonly string[], ops: readonly object[]) => {
    const writes: Edit[] = [];
    for (const urn of urns) {
      if (!(await entityTypeOf(reader, urn))) throw badRequest(`Failed to change ownership for resource ${urn}. Resource does not exist.`);
      writes.push({ urn, aspect: 'ownership', changeType: 'PATCH', value: { patch: ops, arrayPrimaryKeys: KEYS } });
    }
    return writes;
  };

  const add = async (actor: Actor, urns: readonly string[], owners: readonly OwnerInput[], typeUrnForAll?: string | null) => {
    const grant = await service.authorizeEditOrGlossary(actor, urns, OWNERS);
    const reader = graphqlReader(service, actor);
    const entries = owners.map((o) => ({ ...o, ownershipTypeUrn: o.ownershipTypeUrn ?? typeUrnForAll }));
    for (const owner of entries) await checkOwner(reader, owner);
    const time = now();
    const ops = [
      ...entries.map(({ ownerUrn, type, ownershipTypeUrn }) => {
        const typeUrn = ownershipTypeUrn ?? systemTypeUrn(type!);
        const value = { owner: ownerUrn, type: type ?? 'NONE', typeUrn, source: { type: 'MANUAL' } };
        return { op: 'add', path: `/owners/${pointer(ownerUrn)}/${pointer(typeUrn)}`, value };
      }),
      { op: 'add', path: '/lastModified', value: { time, actor: actor.urn } },
    ];
    return writeAll(service, grant, await patches(reader, urns, ops), { time });
  };

  const remove = async (actor: Actor, urns: readonly string[], ownerUrns: readonly string[], ownershipTypeUrn?: string | null) => {
    const grant = await service.authorizeEditOrGlossary(actor, urns, OWNERS);
    const time = now();
    const ops = [
      // Without an ownership type, every entry of the owner goes.
      ...ownerUrns.map((owner) => ({
        op: 'remove',
        path: `/owners/${pointer(owner)}${ownershipTypeUrn ? `/${pointer(ownershipTypeUrn)}` : ''}`,
      })),
      { op: 'add', path: '/lastModified', value: { time, actor: actor.urn } },
    ];
    return writeAll(service, grant, await patches(graphqlReader(service, actor), urns, ops), { time });
  };

  const resourcesOf = (resources: readonly ({ resourceUrn: string } | null | undefined)[]) =>
    resources.flatMap((r) => (r ? [r.resourceUrn] : []));
  return {
    addOwner: (_parent, { input }, { actor }) => add(actor, [input.resourceUrn], [input]),
    addOwners: (_parent, { input }, { actor }) => add(actor, [input.resourceUrn], input.owners),
    removeOwner: (_parent, { input }, { actor }) => remove(actor, [input.resourceUrn], [input.ownerUrn], input.ownershipTypeUrn),
    batchAddOwners: (_parent, { input }, { actor }) => add(actor, resourcesOf(input.resources), input.owners, input.ownershipTypeUrn),
    batchRemoveOwners: (_parent, { input }, { actor }) =>
      remove(actor, resourcesOf(input.resources), input.ownerUrns, input.ownershipTypeUrn),
  };
}
