import { ALL_PRIVILEGES, SYSTEM_ACTOR_URN, type Privilege } from '@mds/auth';
import { aspectSpec, findEntityOfUrn, isJsonObject, type EntitySpec } from '@mds/core';
import { ApiError, badRequest, forbidden, type Actor } from '@mds/schema';
import { DEFAULT_RUN_ID } from '../store/decide';
import { ItemWriteError, type AspectStore, type Audit, type WriteResult } from '../store/port';
import { createIngest } from './ingest';
import {
  createPolicy,
  editPrivileges,
  type AuthorizationSwitches,
  type EntityOperation,
  type Policy,
  type PrivilegeGroups,
} from './policy';
import { formAuthority } from './form-authority';
import { glossaryAuthority } from './glossary-authority';
import { storedPolicySource } from './policies/source';
import type { TimeseriesIngestPort, TimeseriesReader } from './ports';
import { assertValid, checkedEdit, type Edit } from './proposals';
import { EntityReader, type ReadVia } from './reader';

/** The system client: what the service does on its own behalf (seeding a new store) and operators' trusted tools. */
export const SYSTEM_ACTOR: Actor = Object.freeze({ urn: SYSTEM_ACTOR_URN, privileges: ALL_PRIVILEGES });

/**
 * Proof that an actor was authorized for some entities (or for a platform-wide privilege, which covers every entity):
 * issued only by `authorize*`, and asked for by every write and delete. A write of an entity the grant does not cover
 * is a programming error, never a silent widening.
 */
export interface Grant {
  readonly actor: Actor;
  /** The entities covered; `platform`: any (a platform privilege, such as MANAGE_TAGS or MANAGE_DOMAINS). */
  readonly resources: ReadonlySet<string> | 'platform';
}

/** A read-modify-write's change of one aspect: the stored value (undefined when absent) to the value to write. */
export type Modify = (current: Record<string, unknown> | undefined) => Record<string, unknown>;
/** One aspect `updateAll` changes. */
export interface AspectChange {
  urn: string;
  aspect: string;
  modify: Modify;
}

/** A 403's text: fixed, or naming the urns refused. Absent: DataHub's generic GraphQL text. */
export type Denied = string | ((refused: readonly string[]) => string);

/** How many times a read-modify-write is tried when other writes keep moving the aspect between its read and write. */
const MAX_ATTEMPTS = 8;

/**
 * The entity service: the only writer of the aspect store, and the one place that validates and authorizes. Every
 * face (Rest.li, OpenAPI, GraphQL) and every domain package (tags) goes through it:
 * - `ingest`: MCPs parsed, validated, authorized, written (time-series ones to the time-series store);
 * - `reader(actor, via)`: reads under the rule of the face that reads (ReadVia);
 * - `authorize*` then `write` / `update` / `delete*`: edits and deletes, each value validated as an ingested one is.
 */
export function createEntityService(options: {
  store: AspectStore;
  timeseries?: TimeseriesIngestPort;
  /** Reads of time-series points (GraphQL's datasetProfiles, operations). */
  points?: TimeseriesReader;
  switches?: AuthorizationSwitches;
  now?: () => number;
}) {
  const { store, timeseries } = options;
  const now = options.now ?? Date.now;
  const policy: Policy = createPolicy({
    switches: options.switches,
    async ownersOf(urns) {
      const stored = await store.latest(urns, ['ownership']);
      const owners = new Map<string, Set<string>>();
      for (const [urn, aspects] of stored) {
        const list = aspects.get('ownership')?.value.owners;
        owners.set(
          urn,
          new Set((Array.isArray(list) ? list : []).flatMap((o) => (isJsonObject(o) && typeof o.owner === 'string' ? [o.owner] : []))),
        );
      }
      return owners;
    },
    source: storedPolicySource(store),
  });
  const issued = new WeakSet<Grant>();
  const grant = (actor: Actor, resources: readonly string[] | undefined): Grant => {
    const issuedGrant: Grant = Object.freeze({ actor, resources: resources === undefined ? 'platform' : new Set(resources) });
    issued.add(issuedGrant);
    return issuedGrant;
  };
  /** The grant (of several, the first) that covers every urn; a programming error unless one was issued here. */
  const requireCovered = (given: Grant | readonly Grant[], urns: Iterable<string>): Grant => {
    const grants = Array.isArray(given) ? (given as readonly Grant[]) : [given as Grant];
    if (grants.length === 0 || !grants.every((g) => issued.has(g)))
      throw new Error('entity service: a write needs a grant issued by this service');
    for (const urn of urns) {
      if (!grants.some((g) => g.resources === 'platform' || g.resources.has(urn)))
        throw new Error(`entity service: no grant covers ${urn}`);
    }
    return grants[0]!;
  };
  const refusal = (denied: Denied | undefined, refused: readonly string[]) =>
    forbidden(typeof denied === 'function' ? denied(refused) : denied);
  const auditOf = (given: Grant, audit: Partial<Audit> = {}): Audit => ({ actor: given.actor.urn, time: now(), ...audit });

  const ingestion = createIngest({ store, policy, timeseries, now });
  const glossary = glossaryAuthority(store, policy);
  const forms = formAuthority(store);
  const service = {
    policy,
    ingest: ingestion.ingest,
    /** Relays the time-series points a crash left in the outbox (ingest.ts); run at start, before serving. */
    relayOutbox: ingestion.relayOutbox,

    /** The reads of `actor` under the rule of `via` (none: anonymous, which a restricted view hides from). */
    reader: (actor: Actor | undefined, via: ReadVia) =>
      new EntityReader(store, policy, { port: timeseries, read: options.points }, actor, via),

    /**
     * A grant for `privileges` (any one group) on every entity of `resources`, or on the platform when `resources` is
     * absent; a 403 with the face's text (`denied`) otherwise.
     */
    async authorize(actor: Actor, privileges: PrivilegeGroups, resources?: readonly string[], denied?: Denied): Promise<Grant> {
      if (resources === undefined) {
        if (!(await policy.authorize(actor, { privileges }))) throw refusal(denied, []);
        return grant(actor, undefined);
      }
      const refused = await policy.refused(actor, privileges, resources);
      if (refused.length) throw refusal(denied, refused);
      return grant(actor, resources);
    },

    /**
     * A grant to write `targets` decided by `privileges` on `resources` (a 403 otherwise): an entity edited on behalf
     * of the assets it is about, as DataHub decides an incident's or an assertion's edit by the asset it is raised on.
     */
    async authorizeFor(
      actor: Actor,
      privileges: PrivilegeGroups,
      resources: readonly string[],
      targets: readonly string[],
    ): Promise<Grant> {
      await service.authorize(actor, privileges, resources);
      return grant(actor, [...resources, ...targets]);
    },

    /** Whether `actor` holds one group of `privileges` (on `resource`, when one is named): a question, not a grant (`me`'s flags). */
    async allows(actor: Actor, privileges: PrivilegeGroups, resource?: string): Promise<boolean> {
      return privileges.length > 0 && (await policy.authorize(actor, { privileges, resource }));
    },

    /** A grant to edit `urns`: EDIT_ENTITY, or every one of `privileges` (the specific ones of a GraphQL edit). */
    authorizeEdit(actor: Actor, urns: readonly string[], privileges: readonly Privilege[], denied?: Denied): Promise<Grant> {
      return service.authorize(actor, editPrivileges(privileges), urns, denied);
    },

    /** Who manages the business glossary (glossary-authority.ts): questions, for `privileges` flags. */
    glossary,

    /**
     * A grant to edit `urns`: EDIT_ENTITY or every one of `privileges` on each, or, for a glossary term or node, managing
     * it (DataHub's OwnerUtils, DomainUtils, LinkUtils and UpdateDescriptionResolver ask canUpdateGlossaryEntity first).
     */
    async authorizeEditOrGlossary(
      actor: Actor,
      urns: readonly string[],
      privileges: readonly Privilege[],
      denied?: Denied,
    ): Promise<Grant> {
      const refused: string[] = [];
      for (const urn of await policy.refused(actor, editPrivileges(privileges), urns))
        if (!(await glossary.managesEntity(actor, urn))) refused.push(urn);
      if (refused.length) throw refusal(denied, refused);
      return grant(actor, urns);
    },

    /**
     * A grant to write `targets` as who manages what lies directly under each of `nodes` (undefined: the glossary's
     * root): creating a term or node there, or moving one from one node to another. A 403 otherwise.
     */
    async authorizeGlossaryChildren(actor: Actor, nodes: readonly (string | undefined)[], targets: readonly string[]): Promise<Grant> {
      for (const node of nodes)
        if (!(await glossary.managesChildren(actor, node))) throw refusal(undefined, node === undefined ? [] : [node]);
      return grant(actor, targets);
    },

    /**
     * A grant to change the glossary term or node `urn` as who manages it (its name, related terms, its deletion), and
     * to write `alsoWrites` (what a deletion unlinks elsewhere). A 403 otherwise, for any other entity too.
     */
    async authorizeGlossaryEntity(actor: Actor, urn: string, alsoWrites: readonly string[] = []): Promise<Grant> {
      if (!(await glossary.managesEntity(actor, urn))) throw refusal(undefined, [urn]);
      return grant(actor, [urn, ...alsoWrites]);
    },

    /**
     * A grant to write `targets` with an answer to form `formUrn` on `asset` (a prompt's response, a verification): who
     * holds `privileges` on the asset (when given), or to whom the form is assigned there (form-authority.ts). A 403
     * with DataHub's text otherwise.
     */
    async authorizeFormAnswer(
      actor: Actor,
      formUrn: string,
      asset: string,
      targets: readonly string[],
      privileges?: PrivilegeGroups,
    ): Promise<Grant> {
      const allowed =
        (privileges !== undefined && (await service.allows(actor, privileges, asset))) || (await forms.isAssigned(actor, formUrn, asset));
      if (!allowed) throw forbidden(`Failed to authorize form on entity as form with urn ${formUrn} is not assigned to user`);
      return grant(actor, targets);
    },

    /**
     * Whether `actor` may write any entity by its role alone (or REST_API_AUTHORIZATION_ENABLED is off): the bulk
     * ingestion actions' `admit`, asked from the headers before the host gives a slot or reads a large body. An owner
     * without the role may still ingest into what it owns, in bodies up to MAX_BODY_BYTES and without a slot.
     */
    mayIngestInBulk(actor: Actor): boolean {
      const privileges = policy.restApi('UPDATE');
      return privileges === null || privileges.some((group) => group.every((p) => actor.privileges.has(p)));
    },

    /** A grant for an operation of DataHub's REST APIs on `urns` (anyone's when REST_API_AUTHORIZATION_ENABLED is off). */
    authorizeRest(actor: Actor, operation: EntityOperation, urns: readonly string[], denied: Denied): Promise<Grant> {
      const privileges = policy.restApi(operation);
      return privileges ? service.authorize(actor, privileges, urns, denied) : Promise.resolve(grant(actor, urns));
    },

    /**
     * Writes `edits` all or none, in order, stamped by the grant's actor (or `audit`): each checked as an ingested
     * value is, a PATCH's result too. A refused item rejects with ItemWriteError naming its index.
     */
    async write(given: Grant | readonly Grant[], edits: readonly Edit[], audit?: Partial<Audit>): Promise<WriteResult[]> {
      // Nothing to write needs nothing granted (a batch mutation of no resources).
      if (edits.length === 0) return [];
      const stamp = auditOf(
        requireCovered(
          given,
          edits.map((edit) => edit.urn),
        ),
        audit,
      );
      const writes = edits.map((edit, index) => {
        try {
          return checkedEdit(edit);
        } catch (error) {
          throw error instanceof ApiError ? new ItemWriteError(index, error) : error;
        }
      });
      return store.write(writes, stamp, assertValid);
    },

    /**
     * A read-modify-write of one aspect that loses no concurrent edit: the write is conditional on the version read
     * (`If-Version-Match`), and one that lost the race reads again and reapplies `modify`. Answers the value written
     * and whether it was a new version (an identical value writes none).
     */
    async update(
      given: Grant,
      target: { urn: string; aspect: string },
      modify: Modify,
      audit?: Partial<Audit>,
    ): Promise<{ value: Record<string, unknown>; written: boolean }> {
      const [result] = await service.updateAll(given, [{ ...target, modify }], audit);
      return result!;
    },

    /**
     * `update` of several aspects at once, all written or none: each change's `modify` gets the value the changes
     * before it on the same aspect left (the stored one for the first), and the whole is written only if none of the
     * aspects moved since it was read — read and modified again otherwise. One result per aspect, in first-seen order.
     */
    async updateAll(
      given: Grant,
      changes: readonly AspectChange[],
      audit?: Partial<Audit>,
    ): Promise<{ urn: string; aspect: string; value: Record<string, unknown>; written: boolean }[]> {
      // The changes of one aspect, composed in order.
      const targets = new Map<string, AspectChange>();
      for (const { urn, aspect, modify } of changes) {
        const key = `${urn}\u0000${aspect}`;
        const before = targets.get(key)?.modify;
        targets.set(key, { urn, aspect, modify: before ? (current) => modify(before(current)) : modify });
      }
      if (targets.size === 0) return [];
      const urns = [...new Set([...targets.values()].map((t) => t.urn))];
      const aspects = [...new Set([...targets.values()].map((t) => t.aspect))];
      for (let attempt = 1; ; attempt++) {
        const stored = await store.latest(urns, aspects);
        const planned = [...targets.values()].map(({ urn, aspect, modify }) => {
          const current = stored.get(urn)?.get(aspect);
          const value = modify(current?.value);
          const version = current?.systemMetadata?.version;
          return { urn, aspect, value, headers: { 'If-Version-Match': version === undefined ? '-1' : String(version) } };
        });
        try {
          const results = await service.write(
            given,
            planned.map(({ urn, aspect, value, headers }) => ({ urn, aspect, changeType: 'UPSERT' as const, value, headers })),
            audit,
          );
          return planned.map(({ urn, aspect, value }, i) => ({ urn, aspect, value, written: results[i]!.outcome === 'written' }));
        } catch (error) {
          const moved = error instanceof ItemWriteError && error.error.message.includes('(If-Version-Match)');
          if (!moved || attempt === MAX_ATTEMPTS) throw error instanceof ItemWriteError ? error.error : error;
        }
      }
    },

    /** Hard delete: every row of the urn and its time-series points (in the window, when one is given). Answers both counts. */
    async deleteEntity(given: Grant, urn: string, window: { startTimeMillis?: number; endTimeMillis?: number } = {}) {
      requireCovered(given, [urn]);
      const entity = findEntityOfUrn(urn);
      const rows = await store.deleteEntity(urn);
      const timeseriesRows = entity ? ((await timeseries?.deleteEntity({ urn, entityType: entity.name, ...window })) ?? 0) : 0;
      return { rows, timeseriesRows };
    },

    /** Versioned aspects with every version (and their edges); time-series ones with all their points. */
    async deleteAspects(given: Grant, urn: string, entity: EntitySpec, aspects: readonly string[]): Promise<void> {
      requireCovered(given, [urn]);
      const isPoint = (aspect: string) => aspectSpec(aspect)?.kind === 'timeseries';
      await store.deleteAspects(
        urn,
        aspects.filter((aspect) => !isPoint(aspect)),
      );
      for (const aspectName of aspects.filter(isPoint)) await timeseries?.deleteEntity({ urn, entityType: entity.name, aspectName });
    },

    /** The points of one time-series aspect of an entity in an inclusive window (open ends when absent); how many. */
    async deletePoints(
      given: Grant,
      request: { urn: string; entityType: string; aspectName: string; startTimeMillis?: number; endTimeMillis?: number },
    ): Promise<number> {
      requireCovered(given, [request.urn]);
      return (await timeseries?.deleteEntity(request)) ?? 0;
    },

    /** Whether `aspect` is a time-series aspect of `entityType` this installation stores points of. */
    storesPoints: (entityType: string, aspect: string) => timeseries?.accepts(entityType, aspect) ?? false,

    /** The latest `aspects` of every entity of one few-of-a-kind type (policies), for a caller already authorized. */
    latestOfType: (entityType: string, aspects: readonly string[]) => store.latestOfType(entityType, aspects),

    /**
     * Rolls back ingestion run `runId` (DataHub's RollbackService / EntityServiceImpl.rollbackWithConditions): of every
     * entity with a latest aspect the run wrote, those aspects go back to the version before the run (or go, when the
     * run wrote the first), each entity in one transaction. An entity the run created is removed (`hardDelete`) or
     * marked removed (`status`). Who asks needs DELETE on every such entity (DataHub's isAuthorized); `dryRun` changes
     * nothing and answers what would change. The answer is DataHub's RollbackResponse.
     */
    async rollbackRun(actor: Actor, runId: string, options: { dryRun: boolean; hardDelete: boolean }, denied: Denied) {
      if (runId === DEFAULT_RUN_ID)
        throw badRequest(
          `${runId} is a default run-id provided for non labeled ingestion runs. You cannot delete using this reserved run-id`,
        );
      const urns = await store.runEntities(runId);
      const grant = await service.authorizeRest(actor, 'DELETE', urns, denied);
      const rows: Record<string, unknown>[] = [];
      let entitiesAffected = 0;
      let entitiesDeleted = 0;
      let aspectsReverted = 0;
      let aspectsAffected = 0;
      const unsafeEntities: { urn: string }[] = [];
      for (const urn of urns) {
        const done = await store.rollbackRun(urn, runId, options);
        if (done.aspects.length === 0) continue;
        entitiesAffected += 1;
        aspectsAffected += done.unsafeAspects;
        if (done.unsafeAspects > 0) unsafeEntities.push({ urn });
        if (done.entityDeleted || done.keyKept) entitiesDeleted += 1;
        // As DataHub: a soft delete neither counts nor lists the key aspect it keeps.
        const listed = done.aspects.filter((a) => options.hardDelete || !a.key);
        aspectsReverted += listed.length;
        for (const a of listed)
          rows.push({
            runId,
            aspectName: a.aspect,
            urn,
            timestamp: a.createdOn,
            metadata: a.metadata,
            version: a.version,
            keyAspect: a.key,
          });
        if (done.keyKept && !options.dryRun && findEntityOfUrn(urn)?.aspects.includes('status'))
          await service.write(grant, [{ urn, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }]);
      }
      return {
        aspectRowSummaries: rows.slice(0, 100),
        entitiesAffected,
        aspectsAffected,
        entitiesDeleted,
        aspectsReverted,
        unsafeEntitiesCount: unsafeEntities.length,
        unsafeEntities,
      };
    },

    /** Rebuilds the search index from the stored aspects (an operator's command), `progress(done, total)`. */
    reindex: (progress?: (done: number, total: number) => void) => store.reindex(progress),
  };
  return service;
}

export type EntityService = ReturnType<typeof createEntityService>;
