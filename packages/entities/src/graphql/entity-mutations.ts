import { Privilege } from '@mds/auth';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import type { AspectStore, AspectWrite } from '../aspect-store';
import { entityTypeOf, requireEntityPrivilege, writeAll } from './mutation-support';

const DEPRECATION = [Privilege.EDIT_ENTITY, Privilege.EDIT_ENTITY_DEPRECATION];
const DOMAINS = [Privilege.EDIT_ENTITY, Privilege.EDIT_ENTITY_DOMAINS];
const SOFT_DELETE = [Privilege.EDIT_ENTITY, Privilege.DELETE_ENTITY];

type Refs = readonly ({ resourceUrn: string } | null | undefined)[];
const urnsOf = (refs: Refs) => refs.flatMap((r) => (r ? [r.resourceUrn] : []));

/**
 * Whole-aspect edits of entities (entities-api §10): deprecation, domains, soft delete. Each replaces one aspect of
 * every resource, all checked (privilege, existence, DataHub's texts) before any is written, in one write.
 */
export function entityMutationResolvers(store: AspectStore, now: () => number): MutationResolvers {
  /** The writes of `value` as `aspect` on each urn, after the privilege and existence checks. */
  const plan = async (
    actor: Actor,
    privileges: readonly Privilege[],
    urns: readonly string[],
    aspect: string,
    value: unknown,
    absent: (urn: string) => string,
  ) => {
    for (const urn of urns) await requireEntityPrivilege(store, actor, urn, privileges);
    const writes: AspectWrite[] = [];
    for (const urn of urns) {
      const entityType = await entityTypeOf(store, urn);
      if (!entityType) throw badRequest(absent(urn));
      writes.push({ urn, entityType, aspect, changeType: 'UPSERT', value });
    }
    return writes;
  };
  const write = (actor: Actor, writes: readonly AspectWrite[]) => writeAll(store, writes, { actor: actor.urn, time: now() });

  const deprecation = (actor: Actor, input: { deprecated: boolean; decommissionTime?: number | null; note?: string | null }) => ({
    deprecated: input.deprecated,
    note: input.note ?? '',
    actor: actor.urn,
    ...(input.decommissionTime == null ? {} : { decommissionTime: input.decommissionTime }),
  });
  const resourceAbsent = (urn: string) => `Failed to update resource with urn ${urn}. Entity does not exist.`;
  const checkDomain = async (domainUrn: string, message: string) => {
    if ((await entityTypeOf(store, domainUrn)) !== 'domain') throw badRequest(message);
  };

  return {
    updateDeprecation: async (_parent, { input }, { actor }) => {
      const absent = (urn: string) => `Failed to update deprecation for Entity ${urn}. Entity does not exist.`;
      return write(actor, await plan(actor, DEPRECATION, [input.urn], 'deprecation', deprecation(actor, input), absent));
    },
    batchUpdateDeprecation: async (_parent, { input }, { actor }) =>
      write(actor, await plan(actor, DEPRECATION, urnsOf(input.resources), 'deprecation', deprecation(actor, input), resourceAbsent)),
    setDomain: async (_parent, { entityUrn, domainUrn }, { actor }) => {
      await requireEntityPrivilege(store, actor, entityUrn, DOMAINS);
      await checkDomain(domainUrn, `Failed to add Entity ${entityUrn} to Domain ${domainUrn}. Domain does not exist.`);
      const absent = () => `Failed to add Entity ${entityUrn} to Domain ${domainUrn}. Entity does not exist.`;
      return write(actor, await plan(actor, DOMAINS, [entityUrn], 'domains', { domains: [domainUrn] }, absent));
    },
    unsetDomain: async (_parent, { entityUrn }, { actor }) => {
      // DataHub's own text, its missing word included.
      const absent = () => `Failed to unset Domain for Entity ${entityUrn}. Entity does not exist.`;
      return write(actor, await plan(actor, DOMAINS, [entityUrn], 'domains', { domains: [] }, absent));
    },
    batchSetDomain: async (_parent, { input }, { actor }) => {
      const urns = urnsOf(input.resources);
      for (const urn of urns) await requireEntityPrivilege(store, actor, urn, DOMAINS);
      if (input.domainUrn) await checkDomain(input.domainUrn, `Failed to validate Domain with urn ${input.domainUrn}. Urn does not exist.`);
      return write(
        actor,
        await plan(actor, DOMAINS, urns, 'domains', { domains: input.domainUrn ? [input.domainUrn] : [] }, resourceAbsent),
      );
    },
    batchUpdateSoftDeleted: async (_parent, { input }, { actor }) => {
      const absent = (urn: string) => `Failed to soft delete entity with urn ${urn}. Entity does not exist.`;
      return write(actor, await plan(actor, SOFT_DELETE, input.urns, 'status', { removed: input.deleted }, absent));
    },
  };
}
