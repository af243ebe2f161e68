import { Privilege } from '@mds/auth';
import { parseUrn } from '@mds/core';
import { badRequest, type Actor, type GlobalTagsUpdate, type MutationResolvers, type OwnershipUpdate } from '@mds/schema';
import type { Edit, EntityService } from '../service';
import { entityObject } from './dataset';
import { entityTypeOf, graphqlReader, writeAll } from './mutation-support';
import { systemTypeUrn } from './ownership';
import { entityRef } from './typenames';

type Aspect = Record<string, unknown>;
/** Who edits, when: the stamps a part writes into its aspect. */
type Audit = { actor: string; time: number };
/** One part of an update input: the aspect it replaces, what allows it besides EDIT_ENTITY, and its new value. */
interface Part<Input> {
  aspect: string;
  /** Each of these is needed (with EDIT_ENTITY any one of them is enough). */
  privileges: readonly Privilege[];
  value: (input: Input, audit: Audit) => Aspect;
}

/** The `ownership` aspect an update input's OwnershipUpdate replaces (DataHub's OwnershipUpdateMapper). */
export const ownershipFromUpdate = (input: OwnershipUpdate, audit: Audit): Aspect => ({
  owners: input.owners.map(({ owner, type, ownershipTypeUrn }) => ({
    owner,
    type: type ?? 'NONE',
    typeUrn: ownershipTypeUrn ?? systemTypeUrn(type ?? 'NONE'),
    // DataHub's OwnerUpdateMapper marks owners set this way as set by a service.
    source: { type: 'SERVICE' },
  })),
  lastModified: audit,
});
const ownership: Part<OwnershipUpdate> = { aspect: 'ownership', privileges: [Privilege.EDIT_ENTITY_OWNERS], value: ownershipFromUpdate };
const tagsOf = (input: GlobalTagsUpdate) => ({ tags: (input.tags ?? []).map(({ tag }) => ({ tag: tag.urn })) });
const tags: Part<GlobalTagsUpdate> = { aspect: 'globalTags', privileges: [Privilege.EDIT_ENTITY_TAGS], value: tagsOf };
const description = (aspect: string): Part<{ description: string; name?: string | null }> => ({
  aspect,
  privileges: [Privilege.EDIT_ENTITY_DOCS],
  value: ({ description, name }, audit) => ({ description, ...(name == null ? {} : { name }), created: audit, lastModified: audit }),
});

const DATASET_PARTS = {
  ownership,
  tags,
  globalTags: tags,
  editableProperties: description('editableDatasetProperties'),
  deprecation: {
    aspect: 'deprecation',
    privileges: [Privilege.EDIT_ENTITY_STATUS],
    value: (input: { deprecated: boolean; decommissionTime?: number | null; note: string }, audit: Audit) => ({
      deprecated: input.deprecated,
      note: input.note,
      actor: audit.actor,
      ...(input.decommissionTime == null ? {} : { decommissionTime: input.decommissionTime }),
    }),
  },
  institutionalMemory: {
    aspect: 'institutionalMemory',
    privileges: [Privilege.EDIT_ENTITY_DOC_LINKS],
    value: (
      input: { elements: { url: string; description?: string | null; author: string; createdAt?: number | null }[] },
      audit: Audit,
    ) => ({
      elements: input.elements.map((e) => ({
        url: e.url,
        description: e.description ?? '',
        createStamp: { time: e.createdAt ?? audit.time, actor: e.author },
      })),
    }),
  },
  editableSchemaMetadata: {
    aspect: 'editableSchemaMetadata',
    privileges: [Privilege.EDIT_DATASET_COL_TAGS, Privilege.EDIT_DATASET_COL_DESCRIPTION],
    value: (
      input: { editableSchemaFieldInfo: { fieldPath: string; description?: string | null; globalTags?: GlobalTagsUpdate | null }[] },
      audit: Audit,
    ) => ({
      editableSchemaFieldInfo: input.editableSchemaFieldInfo.map((f) => ({
        fieldPath: f.fieldPath,
        ...(f.description == null ? {} : { description: f.description }),
        ...(f.globalTags ? { globalTags: tagsOf(f.globalTags) } : {}),
      })),
      created: audit,
      lastModified: audit,
    }),
  },
} satisfies Record<string, Part<never>>;
const DASHBOARD_PARTS = { ownership, tags, globalTags: tags, editableProperties: description('editableDashboardProperties') };
const CHART_PARTS = { ownership, tags, globalTags: tags, editableProperties: description('editableChartProperties') };
const DATA_FLOW_PARTS = { ownership, tags, globalTags: tags, editableProperties: description('editableDataFlowProperties') };
const NOTEBOOK_PARTS = { ownership, tags, editableProperties: description('editableNotebookProperties') };
const DATA_JOB_PARTS = { ownership, tags, globalTags: tags, editableProperties: description('editableDataJobProperties') };

/**
 * `updateDataset`, `updateDashboard`, `updateChart`, `updateDataFlow`, `updateDataJob` (entities-api §10; DataHub's
 * *UpdateInputMapper of each type): each part of the input replaces one aspect
 * whole, all parts in one write, after the privileges of every part (EDIT_ENTITY, or every part's own) and the
 * entity's existence (D3) are checked.
 */
export function updateMutationResolvers(service: EntityService, now: () => number): MutationResolvers {
  /** An update's grant and writes, checked (privileges, then the entity's existence) but not yet written. */
  const plan = async <Input extends object>(
    actor: Actor,
    urn: string,
    entityType: string,
    parts: Readonly<Record<string, Part<never>>>,
    input: Input,
    audit: { actor: string; time: number },
  ) => {
    const given = Object.entries(input).filter(([name, value]) => value != null && Object.hasOwn(parts, name)) as [string, never][];
    // An input of no part edits nothing, and asks for nothing.
    const grant = given.length
      ? await service.authorizeEdit(actor, [urn], [...new Set(given.flatMap(([name]) => parts[name]!.privileges))])
      : undefined;
    if ((await entityTypeOf(graphqlReader(service, actor), urn)) !== entityType || parseUrn(urn).entityType !== entityType)
      throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
    // `tags` wins over its deprecated alias `globalTags` when both are given: one write per aspect.
    const writes = new Map<string, Edit>();
    for (const [name, value] of given.sort(([a], [b]) => Number(a === 'tags') - Number(b === 'tags'))) {
      const part = parts[name]!;
      writes.set(part.aspect, { urn, aspect: part.aspect, changeType: 'UPSERT', value: part.value(value, audit) });
    }
    return { grant, writes: [...writes.values()] };
  };
  const update = async <Input extends object>(
    actor: Actor,
    urn: string,
    entityType: string,
    parts: Readonly<Record<string, Part<never>>>,
    input: Input,
  ) => {
    const audit = { actor: actor.urn, time: now() };
    const { grant, writes } = await plan(actor, urn, entityType, parts, input, audit);
    if (grant && writes.length) await writeAll(service, grant, writes, audit);
    return entityObject(urn);
  };
  return {
    updateDataset: async (_parent, { urn, input }, { actor }) => await update(actor, urn, 'dataset', DATASET_PARTS, input),
    // DataHub's MutableTypeBatchResolver over DatasetType.batchUpdate: every item checked before any is written, then
    // all written together; the datasets answered in the input's order.
    updateDatasets: async (_parent, { input }, { actor }) => {
      const audit = { actor: actor.urn, time: now() };
      const plans = [];
      for (const item of input) plans.push(await plan(actor, item.urn, 'dataset', DATASET_PARTS, item.update, audit));
      const grants = plans.flatMap((p) => (p.grant ? [p.grant] : []));
      const writes = plans.flatMap((p) => p.writes);
      if (writes.length) await writeAll(service, grants, writes, audit);
      return input.map((item) => entityObject(item.urn) ?? null);
    },
    updateDashboard: async (_parent, { urn, input }, { actor }) => await update(actor, urn, 'dashboard', DASHBOARD_PARTS, input),
    updateChart: async (_parent, { urn, input }, { actor }) => await update(actor, urn, 'chart', CHART_PARTS, input),
    updateDataFlow: async (_parent, { urn, input }, { actor }) => await update(actor, urn, 'dataFlow', DATA_FLOW_PARTS, input),
    updateDataJob: async (_parent, { urn, input }, { actor }) => await update(actor, urn, 'dataJob', DATA_JOB_PARTS, input),
    updateNotebook: async (_parent, { urn, input }, { actor }) => (
      await update(actor, urn, 'notebook', NOTEBOOK_PARTS, input),
      entityRef(urn) ?? null
    ),
  };
}
