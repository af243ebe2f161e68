import type { MaybePromise } from '@mds/core';
import { forbidden, type Actor } from '@mds/schema';
import { lineageEdges, type LineageDirection } from '../model/lineage';
import type { AdjacentEdge, AspectStore, RelationshipQuery, StoredAspect, WalkQuery, WalkResult } from '../store/port';
import type { EntityOperation, Policy } from './policy';
import type { LatestPoint, PointsRequest, TimeseriesIngestPort, TimeseriesReader } from './ports';

/**
 * Which rule a read answers to:
 * - `rest`: Rest.li and OpenAPI (REST_API_AUTHORIZATION_ENABLED); a refused urn is a 403 with the face's text.
 * - `graphql`: GraphQL (VIEW_AUTHORIZATION_ENABLED); an entity the actor may not view reads as if it had no aspects,
 *   as DataHub's restricted entity shows its urn and type only.
 * - `search`: entities a search found, open to every authenticated caller as search itself is (entities-api §11).
 */
export type ReadVia = { api: 'rest'; denied: (urn: string) => string } | { api: 'graphql' } | { api: 'search' };

/**
 * The reads of one caller under one rule. Each read asks the policy about the urns it is given before it reads; a
 * caller whose role decides pays nothing more than the check of a set.
 */
export class EntityReader {
  constructor(
    private readonly store: AspectStore,
    private readonly policy: Policy,
    private readonly timeseries: { port?: TimeseriesIngestPort; read?: TimeseriesReader },
    readonly actor: Actor | undefined,
    private readonly via: ReadVia,
  ) {}

  /** Resolves when the actor may do `operation` on every urn of a REST read (synchronously nothing when the role decides). */
  private restCheck(operation: EntityOperation, urns: readonly string[]): Promise<void> | undefined {
    if (this.via.api !== 'rest') return undefined;
    const privileges = this.policy.restApi(operation);
    if (!privileges) return undefined;
    const denied = this.via.denied;
    const refuse = (refused: readonly string[]) => {
      if (refused.length) throw forbidden(denied(refused[0]!));
    };
    if (!this.actor) return Promise.reject(forbidden(denied(urns[0] ?? '')));
    const refused = this.policy.refused(this.actor, privileges, urns);
    if (!Array.isArray(refused)) return refused.then(refuse);
    refuse(refused);
    return undefined;
  }

  /** The urns among `urns` whose GraphQL view the actor is refused (none unless VIEW_AUTHORIZATION_ENABLED). */
  private async hiddenFromView(urns: readonly string[]): Promise<ReadonlySet<string>> {
    if (this.via.api !== 'graphql') return new Set();
    const restricted = urns.filter((urn) => this.policy.graphqlView(urn));
    if (restricted.length === 0) return new Set();
    if (!this.actor) return new Set(restricted);
    return new Set(await this.policy.refused(this.actor, this.policy.graphqlView(restricted[0]!)!, restricted));
  }

  /** The urns among `urns` the actor may view through this face, in order (all unless VIEW_AUTHORIZATION_ENABLED hides some). */
  async viewable(urns: readonly string[]): Promise<string[]> {
    const hidden = await this.hiddenFromView(urns);
    return urns.filter((urn) => !hidden.has(urn));
  }

  /** The latest value of every stored aspect (or of `aspects`) of each urn (store.latest; never change the maps). */
  latest(urns: readonly string[], aspects?: readonly string[]): MaybePromise<Map<string, Map<string, StoredAspect>>> {
    // A read no rule stands before answers as the store does: synchronously when its cache holds the entity.
    if (this.via.api !== 'rest' && !this.hidesFromView()) return this.store.latest(urns, aspects);
    return this.latestChecked(urns, aspects);
  }

  private async latestChecked(urns: readonly string[], aspects?: readonly string[]) {
    const checked = this.restCheck('READ', urns);
    if (checked) await checked;
    if (!this.hidesFromView()) return this.store.latest(urns, aspects);
    const [stored, hidden] = await Promise.all([this.store.latest(urns, aspects), this.hiddenFromView(urns)]);
    if (!hidden.size) return stored;
    const found = new Map(stored); // the store's maps are shared: never changed
    for (const urn of hidden) found.delete(urn);
    return found;
  }

  /** Whether this face hides what the actor may not view (GraphQL with VIEW_AUTHORIZATION_ENABLED). */
  private hidesFromView(): boolean {
    return this.via.api === 'graphql' && this.policy.switches.view;
  }

  /** One version of an aspect (0 the latest, 1..n history, a negative N counted from the newest). */
  async get(urn: string, aspect: string, version = 0): Promise<StoredAspect | undefined> {
    const checked = this.restCheck('READ', [urn]);
    if (checked) await checked;
    if (this.hidesFromView() && (await this.hiddenFromView([urn])).size) return undefined;
    return this.store.get(urn, aspect, version);
  }

  /**
   * Entities' aspects at chosen versions, one answer per request in order (DataHub's versioned batch get): each request
   * names the aspects to read and the version of each (0 the latest, n ≥ 1 a version of the history); an aspect
   * without that version is left out, as is a version no row can have (negative, or beyond a safe integer). An entity the actor may not
   * view answers undefined. The latest versions of every request are one store read.
   */
  async atVersions(
    requests: readonly { urn: string; versions: ReadonlyMap<string, number> }[],
  ): Promise<(Map<string, StoredAspect> | undefined)[]> {
    const urns = [...new Set(requests.map((r) => r.urn))];
    const checked = this.restCheck('READ', urns);
    if (checked) await checked;
    const hidden = this.hidesFromView() ? await this.hiddenFromView(urns) : new Set<string>();
    const shown = requests.filter((r) => !hidden.has(r.urn));
    const latestNames = [...new Set(shown.flatMap((r) => [...r.versions].filter(([, v]) => v === 0).map(([aspect]) => aspect)))];
    const latest = latestNames.length ? await this.store.latest([...new Set(shown.map((r) => r.urn))], latestNames) : new Map();
    return Promise.all(
      requests.map(async ({ urn, versions }) => {
        if (hidden.has(urn)) return undefined;
        const found = new Map<string, StoredAspect>();
        for (const [aspect, version] of versions) {
          const stored =
            version === 0
              ? latest.get(urn)?.get(aspect)
              : version > 0 && Number.isSafeInteger(version)
                ? await this.store.get(urn, aspect, version)
                : undefined;
          if (stored) found.set(aspect, stored);
        }
        return found;
      }),
    );
  }

  /** Every version of an aspect, the latest (0) first. */
  async versions(urn: string, aspect: string): Promise<StoredAspect[]> {
    const checked = this.restCheck('READ', [urn]);
    if (checked) await checked;
    if (this.hidesFromView() && (await this.hiddenFromView([urn])).size) return [];
    return this.store.versions(urn, aspect);
  }

  /** Whether the entity's key aspect is stored; soft-deleted counts unless asked not to. */
  async exists(urn: string, options: { includeSoftDeleted?: boolean } = {}): Promise<boolean> {
    const checked = this.restCheck('EXISTS', [urn]);
    if (checked) await checked;
    return this.store.exists(urn, options);
  }

  /** A page of the edges from (OUTGOING) or to (INCOMING) `urn`, and how many there are. */
  async relationships(urn: string, query: RelationshipQuery) {
    const checked = this.restCheck('READ', [urn]);
    if (checked) await checked;
    return this.store.relationships(urn, query);
  }

  /**
   * The lineage of `urn` in a direction over several hops (model/lineage.ts says which edges), bounded as the query
   * says; under GraphQL's view rule an entity the caller may not view is left out.
   */
  async lineage(urn: string, direction: LineageDirection, query: Omit<WalkQuery, 'outgoing' | 'incoming'>): Promise<WalkResult> {
    const checked = this.restCheck('READ', [urn]);
    if (checked) await checked;
    const found = await this.store.walk(urn, { ...lineageEdges(direction), ...query });
    if (!this.hidesFromView()) return found;
    const hidden = await this.hiddenFromView(found.entities.map((e) => e.urn));
    return { ...found, entities: found.entities.filter((e) => !hidden.has(e.urn)) };
  }

  /** One hop of lineage with each edge's type and stamps (ordered by type, then urns). */
  async lineageEdges(urn: string, direction: LineageDirection, between?: WalkQuery['between']): Promise<AdjacentEdge[]> {
    const checked = this.restCheck('READ', [urn]);
    if (checked) await checked;
    return this.store.adjacent(urn, { ...lineageEdges(direction), ...(between ? { between } : {}) });
  }

  /** The entities with an edge of `type` to `urn`, and the aspect of each declaring it. */
  referencesTo(urn: string, type: string) {
    return this.store.referencesTo(urn, type);
  }

  /** The newest point of a time-series aspect of the entity, if the time-series store holds any. */
  async point(urn: string, entityType: string, aspect: string): Promise<LatestPoint | undefined> {
    const { port } = this.timeseries;
    if (!port?.accepts(entityType, aspect)) return undefined;
    const checked = this.restCheck('READ', [urn]);
    if (checked) await checked;
    return port.latest({ urn, entityType, aspectName: aspect });
  }

  /** Points of a time-series aspect, newest first; none for a caller the aspect's privilege is refused (DataHub's answer). */
  async points(request: PointsRequest): Promise<Record<string, unknown>[]> {
    const { read } = this.timeseries;
    if (!read) return [];
    const privileges = this.policy.timeseriesView(request.aspect);
    if (privileges && !(this.actor && (await this.policy.authorize(this.actor, { privileges, resource: request.urn })))) return [];
    return read(request);
  }

  /** The entities whose latest aspect was written most recently, newest first (mds's own read; a platform-wide privilege). */
  async recent(count: number): Promise<{ urn: string; lastWritten: number }[]> {
    const privileges = this.via.api === 'rest' ? this.policy.restApi('READ') : null;
    if (privileges && !(this.actor && (await this.policy.authorize(this.actor, { privileges })))) {
      throw forbidden(this.via.api === 'rest' ? this.via.denied('') : undefined);
    }
    return this.store.recent(count);
  }
}
