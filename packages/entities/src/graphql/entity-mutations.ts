import { Privilege } from '@mds/auth';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import type { Edit, EntityService, Grant } from '../service';
import { entityTypeOf, graphqlReader, writeAll } from './mutation-support';

const DEPRECATION = [Privilege.EDIT_ENTITY_DEPRECATION];
const DOMAINS = [Privilege.EDIT_ENTITY_DOMAINS];
const SOFT_DELETE = [Privilege.DELETE_ENTITY];

type Refs = readonly ({ resourceUrn: string } | null | undefined)[];
const urnsOf = (refs: Refs) => refs.flatMap((r) => (r ? [r.resourceUrn] : []));

/**
 * Whole-aspect edits of entities (entities-api §10): deprecation, domains (which who manages a glossary term or node
 * may set on it, as DataHub's DomainUtils allows), soft delete. Each replaces one aspect of
 * every resource, all checked (privilege, existence, DataHub's texts) before any is written, in one write.
 */
export function entityMutationResolvers(service: EntityService): MutationResolvers {
  /** Writes `value` as `aspect` on each urn the grant covers, after checking each exists (`absent`: the text if not). */
  const write = async (grant: Grant, urns: readonly string[], aspect: string, value: unknown, absent: (urn: string) => string) => {
    const reader = graphqlReader(service, grant.actor);
    const edits: Edit[] = [];
    for (const urn of urns) {
      if (!(await entityTypeOf(reader, urn))) throw badRequest(absent(urn));
      edits.push({ urn, aspect, changeType: 'UPSERT', value });
    }
    return writeAll(service, grant, edits);
  };
  /** The same, the privilege checked first. */
  const edit = async (
    actor: Actor,
    privileges: readonly Privilege[],
    urns: readonly string[],
    aspect: string,
    value: unknown,
    absent: (urn: string) => string,
  ) => write(await service.authorizeEdit(actor, urns, privileges), urns, aspect, value, absent);

  const deprecation = (actor: Actor, input: { deprecated: boolean; decommissionTime?: number | null; note?: string | null }) => ({
    deprecated: input.deprecated,
    note: input.note ?? '',
    actor: actor.urn,
    ...(input.decommissionTime == null ? {} : { decommissionTime: input.decommissionTime }),
  });
  const resourceAbsent = (urn: string) => `Failed to update resource with urn ${urn}. Entity does not exist.`;
  const checkDomain = async (actor: Actor, domainUrn: string, message: string) => {
    if ((await entityTypeOf(graphqlReader(service, actor), domainUrn)) !== 'domain') throw badRequest(message);
  };

  return {
    updateDeprecation: async (_parent, { input }, { actor }) => {
      const absent = (urn: string) => `Failed to update deprecation for Entity ${urn}. Entity does not exist.`;
      return edit(actor, DEPRECATION, [input.urn], 'deprecation', deprecation(actor, input), absent);
    },
    batchUpdateDeprecation: async (_parent, { input }, { actor }) =>
      edit(actor, DEPRECATION, urnsOf(input.resources), 'deprecation', deprecation(actor, input), resourceAbsent),
    setDomain: async (_parent, { entityUrn, domainUrn }, { actor }) => {
      const grant = await service.authorizeEditOrGlossary(actor, [entityUrn], DOMAINS);
      await checkDomain(actor, domainUrn, `Failed to add Entity ${entityUrn} to Domain ${domainUrn}. Domain does not exist.`);
      const absent = () => `Failed to add Entity ${entityUrn} to Domain ${domainUrn}. Entity does not exist.`;
      return write(grant, [entityUrn], 'domains', { domains: [domainUrn] }, absent);
    },
    unsetDomain: async (_parent, { entityUrn }, { actor }) => {
      // DataHub's own text, its missing word included.
      const absent = () => `Failed to unset Domain for Entity ${entityUrn}. Entity does not exist.`;
      return write(await service.authorizeEditOrGlossary(actor, [entityUrn], DOMAINS), [entityUrn], 'domains', { domains: [] }, absent);
    },
    batchSetDomain: async (_parent, { input }, { actor }) => {
      const urns = urnsOf(input.resources);
      const grant = await service.authorizeEditOrGlossary(actor, urns, DOMAINS);
      if (input.domainUrn)
        await checkDomain(actor, input.domainUrn, `Failed to validate Domain with urn ${input.domainUrn}. Urn does not exist.`);
      return write(grant, urns, 'domains', { domains: input.domainUrn ? [input.domainUrn] : [] }, resourceAbsent);
    },
    batchUpdateSoftDeleted: async (_parent, { input }, { actor }) => {
      const absent = (urn: string) => `Failed to soft delete entity with urn ${urn}. Entity does not exist.`;
      return edit(actor, SOFT_DELETE, input.urns, 'status', { removed: input.deleted }, absent);
    },
  };
}
