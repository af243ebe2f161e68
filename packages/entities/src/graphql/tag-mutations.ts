import { Privilege } from '@mds/auth';
import { urnTypeOf } from '@mds/core';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import type { Edit, EntityReader, EntityService, Grant } from '../service';
import { entityTypeOf, fieldOf, graphqlReader, pointer, requireSchemaField, writeAll } from './mutation-support';

/** One resource a tag mutation edits: an entity, or a field of a dataset's schema. */
interface ResourceRef {
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

const RESOURCE = [Privilege.EDIT_ENTITY_TAGS];
const FIELD = [Privilege.EDIT_DATASET_COL_TAGS];

/**
 * `addTag(s)`, `removeTag`, `batchAddTags`, `batchRemoveTags` (entities-api §10): every resource and tag checked
 * (privilege, T1-T6) before anything is written, then one write of PATCHes applied inside its transaction, so
 * concurrent edits of one aspect never lose each other. Entity tags go to `globalTags`; a field's to its entry of
 * `editableSchemaMetadata` (created if missing); ingested `schemaMetadata` is never edited.
 */
export function tagMutationResolvers(service: EntityService): MutationResolvers {
  const checkTags = async (reader: EntityReader, tagUrns: readonly string[]) => {
    for (const tagUrn of tagUrns) {
      if (urnTypeOf(tagUrn) !== 'tag')
        throw badRequest(`Failed to validate label with urn ${tagUrn}. Urn type does not match entity type tag..`);
      if (!(await reader.exists(tagUrn))) throw badRequest(`Failed to validate label with urn ${tagUrn}. Urn does not exist.`);
    }
  };

  /** The resource's write for `tagUrns`, after its checks; `op` adds or removes each tag. */
  const planWrite = async (reader: EntityReader, ref: ResourceRef, tagUrns: readonly string[], op: 'add' | 'remove'): Promise<Edit> => {
    const urn = ref.resourceUrn;
    const field = fieldOf(urn, ref);
    if (!(await entityTypeOf(reader, urn))) throw badRequest(`Failed to update resource with urn ${urn}. Entity does not exist.`);
    const entry = (tagUrn: string) => ({
      op,
      path: `${field === undefined ? '' : `/editableSchemaFieldInfo/${pointer(field)}/globalTags`}/tags/${pointer(tagUrn)}`,
      ...(op === 'add' ? { value: { tag: tagUrn } } : {}),
    });
    if (field === undefined) return { urn, aspect: 'globalTags', changeType: 'PATCH', value: tagUrns.map(entry) };
    await requireSchemaField(reader, urn, field);
    return { urn, aspect: 'editableSchemaMetadata', changeType: 'PATCH', value: tagUrns.map(entry) };
  };

  // As DataHub: the caller's privileges on every resource first, then the tags, then each resource.
  const run = async (actor: Actor, refs: readonly ResourceRef[], tagUrns: readonly string[], op: 'add' | 'remove') => {
    const grants: Grant[] = [];
    for (const ref of refs)
      grants.push(await service.authorizeEdit(actor, [ref.resourceUrn], ref.subResourceType === 'DATASET_FIELD' ? FIELD : RESOURCE));
    const reader = graphqlReader(service, actor);
    await checkTags(reader, tagUrns);
    const writes: Edit[] = [];
    for (const ref of refs) writes.push(await planWrite(reader, ref, tagUrns, op));
    return writeAll(service, grants, writes);
  };

  return {
    addTag: (_parent, { input }, { actor }) => run(actor, [input], [input.tagUrn], 'add'),
    addTags: (_parent, { input }, { actor }) => run(actor, [input], input.tagUrns, 'add'),
    removeTag: (_parent, { input }, { actor }) => run(actor, [input], [input.tagUrn], 'remove'),
    batchAddTags: (_parent, { input }, { actor }) => run(actor, input.resources, input.tagUrns, 'add'),
    batchRemoveTags: (_parent, { input }, { actor }) =>
      run(
        actor,
        input.resources.filter((r): r is NonNullable<typeof r> => r != null),
        input.tagUrns,
        'remove',
      ),
  };
}
