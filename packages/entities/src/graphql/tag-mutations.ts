import { Privilege } from '@mds/auth';
import { urnTypeOf } from '@mds/core';
import { badRequest, type Actor, type MutationResolvers } from '@mds/schema';
import type { Edit, EntityReader, EntityService, Grant } from '../service';
import { businessAttributeLabels } from './business-attributes';
import { entityTypeOf, fieldOf, graphqlReader, pointer, requireSchemaField, writeAll } from './mutation-support';

/** One resource a label mutation edits: an entity, or a field of a dataset's schema. */
interface ResourceRef {
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

/** A kind of label an entity or a dataset field carries: where it is stored and who may edit it. */
interface LabelKind {
  /** The registry name of the label's entity type. */
  entityType: string;
  /** The aspect (and the entry of `editableSchemaMetadata`'s field info) holding the labels. */
  aspect: 'globalTags' | 'glossaryTerms';
  /** The array of the aspect, and the key of each association. */
  list: 'tags' | 'terms';
  key: 'tag' | 'urn';
  /** The privilege on an entity, and on a dataset field. */
  resource: readonly Privilege[];
  field: readonly Privilege[];
  /** Whether the association set carries an audit stamp (DataHub stamps glossary terms with the caller). */
  stamped: boolean;
}

const TAG: LabelKind = {
  entityType: 'tag',
  aspect: 'globalTags',
  list: 'tags',
  key: 'tag',
  resource: [Privilege.EDIT_ENTITY_TAGS],
  field: [Privilege.EDIT_DATASET_COL_TAGS],
  stamped: false,
};
const TERM: LabelKind = {
  entityType: 'glossaryTerm',
  aspect: 'glossaryTerms',
  list: 'terms',
  key: 'urn',
  resource: [Privilege.EDIT_ENTITY_GLOSSARY_TERMS],
  field: [Privilege.EDIT_DATASET_COL_GLOSSARY_TERMS],
  stamped: true,
};

const present = <T>(items: readonly (T | null | undefined)[]) => items.filter((r): r is T => r != null);

/**
 * `addTag(s)`, `removeTag`, `batchAddTags`, `batchRemoveTags` and the same five for glossary terms (entities-api §10,
 * DataHub's LabelUtils): every resource and label checked (privilege, T1-T6) before anything is written, then one
 * write of PATCHes applied inside its transaction, so concurrent edits of one aspect never lose each other. Entity
 * labels go to `globalTags` / `glossaryTerms`; a field's to its entry of `editableSchemaMetadata` (created if
 * missing); ingested `schemaMetadata` is never edited. Glossary terms carry the caller's stamp as DataHub's do (an
 * entity's on every edit, a field's on an add).
 */
export function tagMutationResolvers(service: EntityService, now: () => number = Date.now): MutationResolvers {
  const checkLabels = async (reader: EntityReader, kind: LabelKind, labelUrns: readonly string[]) => {
    for (const urn of labelUrns) {
      if (urnTypeOf(urn) !== kind.entityType)
        throw badRequest(`Failed to validate label with urn ${urn}. Urn type does not match entity type ${kind.entityType}..`);
      if (!(await reader.exists(urn))) throw badRequest(`Failed to validate label with urn ${urn}. Urn does not exist.`);
    }
  };

  /** The resource's write for `labelUrns`, after its checks; `op` adds or removes each label. */
  const planWrite = async (
    reader: EntityReader,
    kind: LabelKind,
    ref: ResourceRef,
    labelUrns: readonly string[],
    op: 'add' | 'remove',
    stamp: { time: number; actor: string },
  ): Promise<Edit> => {
    const urn = ref.resourceUrn;
    const field = fieldOf(urn, ref);
    const type = await entityTypeOf(reader, urn);
    if (!type) throw badRequest(`Failed to update resource with urn ${urn}. Entity does not exist.`);
    // A business attribute keeps its labels inside its businessAttributeInfo (LabelUtils' *ToBusinessAttributeProposal).
    if (field === undefined && type === 'businessAttribute') return businessAttributeLabels(reader, urn, kind, labelUrns, op, stamp);
    const base = field === undefined ? '' : `/editableSchemaFieldInfo/${pointer(field)}/${kind.aspect}`;
    const ops: object[] = labelUrns.map((label) => ({
      op,
      path: `${base}/${kind.list}/${pointer(label)}`,
      ...(op === 'add' ? { value: { [kind.key]: label } } : {}),
    }));
    if (kind.stamped && (field === undefined || op === 'add')) ops.push({ op: 'add', path: `${base}/auditStamp`, value: stamp });
    if (field === undefined) return { urn, aspect: kind.aspect, changeType: 'PATCH', value: ops };
    await requireSchemaField(reader, urn, field);
    return { urn, aspect: 'editableSchemaMetadata', changeType: 'PATCH', value: ops };
  };

  // As DataHub: the caller's privileges on every resource first, then the labels, then each resource.
  const run =
    (kind: LabelKind, op: 'add' | 'remove') => async (actor: Actor, refs: readonly ResourceRef[], labelUrns: readonly string[]) => {
      const grants: Grant[] = [];
      for (const ref of refs)
        grants.push(
          await service.authorizeEdit(actor, [ref.resourceUrn], ref.subResourceType === 'DATASET_FIELD' ? kind.field : kind.resource),
        );
      const reader = graphqlReader(service, actor);
      await checkLabels(reader, kind, labelUrns);
      const time = now();
      const writes: Edit[] = [];
      for (const ref of refs) writes.push(await planWrite(reader, kind, ref, labelUrns, op, { time, actor: actor.urn }));
      return writeAll(service, grants, writes, { time });
    };
  const [addTags, removeTags, addTerms, removeTerms] = [run(TAG, 'add'), run(TAG, 'remove'), run(TERM, 'add'), run(TERM, 'remove')];

  return {
    addTag: (_parent, { input }, { actor }) => addTags(actor, [input], [input.tagUrn]),
    addTags: (_parent, { input }, { actor }) => addTags(actor, [input], input.tagUrns),
    removeTag: (_parent, { input }, { actor }) => removeTags(actor, [input], [input.tagUrn]),
    batchAddTags: (_parent, { input }, { actor }) => addTags(actor, input.resources, input.tagUrns),
    batchRemoveTags: (_parent, { input }, { actor }) => removeTags(actor, present(input.resources), input.tagUrns),
    addTerm: (_parent, { input }, { actor }) => addTerms(actor, [input], [input.termUrn]),
    addTerms: (_parent, { input }, { actor }) => addTerms(actor, [input], input.termUrns),
    removeTerm: (_parent, { input }, { actor }) => removeTerms(actor, [input], [input.termUrn]),
    batchAddTerms: (_parent, { input }, { actor }) => addTerms(actor, present(input.resources), input.termUrns),
    batchRemoveTerms: (_parent, { input }, { actor }) => removeTerms(actor, present(input.resources), input.termUrns),
  };
}
