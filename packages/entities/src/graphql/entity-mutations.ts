import { Privilege } from '@mds/auth';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import { editPrivileges, type Edit, type EntityService, type Grant } from '../service';
import { schemaFieldUrn } from '../timeline/events';
import { entityTypeOf, fieldOf, graphqlReader, requireSchemaField, writeAll } from './mutation-support';

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
  /**
   * Writes `value` as `aspect` on each urn the grant covers, after checking each exists (`absent`: the text if not);
   * `target` names where a urn's aspect goes when not on the urn itself (a field of it).
   */
  const write = async (
    grant: Grant,
    urns: readonly string[],
    aspect: string,
    value: unknown,
    absent: (urn: string) => string,
    target?: (urn: string, index: number) => Promise<string>,
  ) => {
    const reader = graphqlReader(service, grant.actor);
    const edits: Edit[] = [];
    for (const [index, urn] of urns.entries()) {
      if (!(await entityTypeOf(reader, urn))) throw badRequest(absent(urn));
      edits.push({ urn: target ? await target(urn, index) : urn, aspect, changeType: 'UPSERT', value });
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

  type DeprecationInput = { deprecated: boolean; decommissionTime?: number | null; note?: string | null; replacement?: string | null };
  const deprecation = (actor: Actor, input: DeprecationInput) => ({
    deprecated: input.deprecated,
    note: input.note ?? '',
    actor: actor.urn,
    ...(input.decommissionTime == null ? {} : { decommissionTime: input.decommissionTime }),
    ...(input.replacement == null ? {} : { replacement: input.replacement }),
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
    batchUpdateDeprecation: async (_parent, { input }, { actor }) => {
      // DataHub's DeprecationUtils: a resource naming a field deprecates that field's schemaField entity, decided by
      // the privilege on the resource.
      const refs = input.resources.flatMap((r) => (r ? [r] : []));
      const urns = refs.map((r) => r.resourceUrn);
      const fields = refs.map((r) => fieldOf(r.resourceUrn, r));
      const targets = urns.map((urn, i) => (fields[i] === undefined ? urn : schemaFieldUrn(urn, fields[i])));
      const grant = await service.authorizeFor(actor, editPrivileges(DEPRECATION), urns, targets);
      const reader = graphqlReader(service, actor);
      const target = async (urn: string, index: number) => {
        const field = fields[index];
        if (field !== undefined) await requireSchemaField(reader, urn, field);
        return targets[index]!;
      };
      return write(grant, urns, 'deprecation', deprecation(actor, input), resourceAbsent, target);
    },
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
