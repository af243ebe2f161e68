import { Privilege } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import { badRequest, type MutationResolvers } from '@mds/schema';
import { anyOf, type AspectChange, type EntityReader, type EntityService } from '../service';
import { urnArgument } from './common-fields';
import { graphqlReader } from './mutation-support';

type Aspect = Record<string, unknown>;
type Stamp = { time: number; actor: string };
/** What DataHub's UpdateLineageResolver asks on both ends of every edge (LINEAGE/UPDATE: EDIT_ENTITY or EDIT_LINEAGE). */
const EDIT_LINEAGE = anyOf(Privilege.EDIT_ENTITY, Privilege.EDIT_LINEAGE);

/** The edges to add and to remove of one end, by the other end. */
interface Changes {
  add: string[];
  remove: Set<string>;
}

/** The urn an element of a legacy urn list names: the urn itself, or the member of a union (`{"string": urn}`). */
const legacyUrn = (item: unknown) => (typeof item === 'string' ? item : isJsonObject(item) ? Object.values(item)[0] : undefined);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * One kind of edge an aspect holds twice, as DataHub's models keep them: `edges` (Edge records naming their
 * destination) and the older urn list `legacy`. New destinations (in neither list) are appended as Edge records made by
 * hand (`properties.source` UI, created and modified by the caller); then every removed destination leaves both lists.
 */
function editEdges(
  aspect: Aspect,
  edges: string,
  legacy: string,
  changes: { add: string[]; remove: Set<string> },
  source: string,
  stamp: Stamp,
) {
  const current = listOf(aspect[edges]).filter(isJsonObject);
  const old = listOf(aspect[legacy]);
  const known = new Set([...current.map((e) => e.destinationUrn), ...old.map(legacyUrn)]);
  const added = [...new Set(changes.add)]
    .filter((urn) => !known.has(urn))
    .map((destinationUrn) => ({ destinationUrn, sourceUrn: source, created: stamp, lastModified: stamp, properties: { source: 'UI' } }));
  return {
    ...aspect,
    [edges]: [...current, ...added].filter((e) => !changes.remove.has(e.destinationUrn as string)),
    [legacy]: old.filter((item) => !changes.remove.has(legacyUrn(item) as string)),
  };
}

/** Edges of `changes` whose other end is (or is not) of `entityType`. */
const only = (changes: Changes, keep: (entityType: string) => boolean): Changes => ({
  add: changes.add.filter((urn) => keep(typeOf(urn))),
  remove: new Set([...changes.remove].filter((urn) => keep(typeOf(urn)))),
});
const typeOf = (urn: string) => urnArgument(urn).entityType;
/** The changes with only the added ends of `entityType` (every removal kept: a removal names no kind). */
const addedOf = (changes: Changes, entityType: string): Changes => ({
  add: changes.add.filter((urn) => typeOf(urn) === entityType),
  remove: changes.remove,
});

/** Every edge of the input grouped by one end (`by`), the other end listed as added or removed. */
function grouped(
  adds: readonly { upstreamUrn: string; downstreamUrn: string }[],
  removes: readonly { upstreamUrn: string; downstreamUrn: string }[],
  by: 'upstreamUrn' | 'downstreamUrn',
): Map<string, Changes> {
  const other = by === 'upstreamUrn' ? 'downstreamUrn' : 'upstreamUrn';
  const groups = new Map<string, Changes>();
  const of = (urn: string) => groups.get(urn) ?? groups.set(urn, { add: [], remove: new Set() }).get(urn)!;
  for (const edge of adds) of(edge[by]).add.push(edge[other]);
  for (const edge of removes) of(edge[by]).remove.add(edge[other]);
  return groups;
}

/**
 * `updateLineage` (DataHub's UpdateLineageResolver over its LineageService): each edge is written where DataHub's model
 * keeps it — a dataset's upstreams in its `upstreamLineage` (TRANSFORMED, source UI), a chart's in `chartInfo`'s inputs,
 * a dashboard's in `dashboardInfo`'s charts and datasets, a data job's inputs and outputs in its `dataJobInputOutput`
 * (a job's output datasets are written on the job, not on the datasets). Every end must exist and every added upstream
 * be of a kind its downstream takes, with DataHub's texts; all of it is checked before anything is written.
 */
export function lineageMutationResolvers(service: EntityService, now: () => number): MutationResolvers {
  return {
    updateLineage: async (_parent, { input }, { actor }) => {
      const edges = (list: readonly ({ upstreamUrn: string; downstreamUrn: string } | null | undefined)[]) =>
        list.flatMap((edge) => (edge ? [edge] : []));
      const adds = edges(input.edgesToAdd);
      const removes = edges(input.edgesToRemove);
      const ends = [...new Set([...adds, ...removes].flatMap((e) => [e.upstreamUrn, e.downstreamUrn]))];
      for (const urn of ends) urnArgument(urn);
      const grant = await service.authorize(
        actor,
        EDIT_LINEAGE,
        ends,
        (refused) => `Unauthorized to edit ${refused[0]} lineage for ${typeOf(refused[0]!)}`,
      );
      const reader = graphqlReader(service, actor);
      const stamp = { time: now(), actor: actor.urn };
      const changes: AspectChange[] = [];
      const plan = new LineagePlan(reader, stamp, changes);

      for (const [downstream, changes] of grouped(adds, removes, 'downstreamUrn')) {
        if (!(await reader.exists(downstream, { includeSoftDeleted: true })))
          throw badRequest(`Cannot upsert lineage as downstream urn ${downstream} doesn't exist`);
        await plan.downstream(downstream, changes);
      }
      for (const [upstream, changes] of grouped(adds, removes, 'upstreamUrn')) {
        // DataHub's text for a missing upstream says "downstream" too.
        if (!(await reader.exists(upstream, { includeSoftDeleted: true })))
          throw badRequest(`Cannot upsert lineage as downstream urn ${upstream} doesn't exist`);
        if (typeOf(upstream) === 'dataJob')
          await plan.jobOutputs(
            upstream,
            only(changes, (type) => type !== 'dataJob'),
          );
      }
      // Every aspect changed, written together: all of the lineage edit or none of it.
      await service.updateAll(grant, changes, { time: stamp.time });
      return true;
    },
  };
}

/** The checks and the changes of one updateLineage, each change queued until every check has passed. */
class LineagePlan {
  constructor(
    private readonly reader: EntityReader,
    private readonly stamp: Stamp,
    private readonly changes: AspectChange[],
  ) {}

  /** The upstreams to add are of the kinds `allowed`, each stored (LineageService's validate*Urns). */
  private async check(add: readonly string[], allowed: readonly string[], refusal: (urn: string) => string) {
    for (const urn of add) {
      if (!allowed.includes(typeOf(urn))) throw badRequest(refusal(urn));
      if (!(await this.reader.exists(urn))) throw badRequest(`Error: urn does not exist: ${urn}`);
    }
  }

  /** Queues a read-modify-write of `aspect` of `urn`; `required` names the refusal when the aspect is (no longer) stored. */
  private queue(urn: string, aspect: string, change: (current: Aspect) => Aspect, required?: string) {
    this.changes.push({
      urn,
      aspect,
      modify: (current) => {
        if (!current && required) throw badRequest(required);
        return change(current ?? {});
      },
    });
  }

  /** The refusal when a chart's or dashboard's info aspect, which holds its lineage, is not stored (thrown now if absent). */
  private async requireInfo(urn: string, kind: 'chart' | 'dashboard') {
    const missing = `Failed to update ${kind} lineage for urn ${urn} as ${kind} info doesn't exist`;
    const aspect = `${kind}Info`;
    if (!(await this.reader.latest([urn], [aspect])).get(urn)?.get(aspect)) throw badRequest(missing);
    return missing;
  }

  /** The edges written on the downstream end, by its kind (other kinds hold no hand-drawn lineage: nothing is written). */
  async downstream(urn: string, changes: Changes) {
    const stamp = this.stamp;
    switch (typeOf(urn)) {
      case 'dataset': {
        // A job upstream of a dataset is the job's output, written on the job (jobOutputs).
        const { add, remove } = only(changes, (type) => type !== 'dataJob');
        await this.check(
          add,
          ['dataset'],
          (u) => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${u}`,
        );
        this.queue(urn, 'upstreamLineage', (current) => {
          const upstreams = listOf(current.upstreams).filter(isJsonObject);
          const known = new Set(upstreams.map((u) => u.dataset));
          const added = [...new Set(add)]
            .filter((dataset) => !known.has(dataset))
            .map((dataset) => ({ auditStamp: stamp, created: stamp, dataset, type: 'TRANSFORMED', properties: { source: 'UI' } }));
          return { ...current, upstreams: [...upstreams, ...added].filter((u) => !remove.has(u.dataset as string)) };
        });
        return;
      }
      case 'chart': {
        await this.check(
          changes.add,
          ['dataset', 'chart'],
          (u) => `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${u}`,
        );
        const missing = await this.requireInfo(urn, 'chart');
        this.queue(urn, 'chartInfo', (current) => editEdges(current, 'inputEdges', 'inputs', changes, urn, stamp), missing);
        return;
      }
      case 'dashboard': {
        await this.check(
          changes.add,
          ['dataset', 'chart'],
          (u) => `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${u}`,
        );
        const missing = await this.requireInfo(urn, 'dashboard');
        const [charts, datasets] = [addedOf(changes, 'chart'), addedOf(changes, 'dataset')];
        this.queue(
          urn,
          'dashboardInfo',
          (current) =>
            editEdges(editEdges(current, 'chartEdges', 'charts', charts, urn, stamp), 'datasetEdges', 'datasets', datasets, urn, stamp),
          missing,
        );
        return;
      }
      case 'dataJob': {
        await this.check(
          changes.add,
          ['dataset', 'dataJob'],
          (u) => `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${u}`,
        );
        const [datasets, jobs] = [addedOf(changes, 'dataset'), addedOf(changes, 'dataJob')];
        this.queue(urn, 'dataJobInputOutput', (current) =>
          editEdges(
            editEdges(withJobLists(current), 'inputDatasetEdges', 'inputDatasets', datasets, urn, stamp),
            'inputDatajobEdges',
            'inputDatajobs',
            jobs,
            urn,
            stamp,
          ),
        );
        return;
      }
      default:
    }
  }

  /** The datasets a job writes (its downstreams), kept in its own dataJobInputOutput's outputs. */
  async jobOutputs(urn: string, changes: Changes) {
    await this.check(
      changes.add,
      ['dataset'],
      (u) => `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${u}`,
    );
    this.queue(urn, 'dataJobInputOutput', (current) =>
      editEdges(withJobLists(current), 'outputDatasetEdges', 'outputDatasets', changes, urn, this.stamp),
    );
  }
}

/** A job's input/output aspect with the two urn lists its model requires (empty when the job had none). */
const withJobLists = (current: Aspect): Aspect => ({ inputDatasets: [], outputDatasets: [], ...current });
