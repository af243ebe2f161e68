import { Privilege } from '@mds/auth';
import type { TestSqlDatabases } from '@mds/db/testing';
import { ApiError, parseActionParams, type ApiContext, type JsonRoute } from '@mds/schema';
import { ALL_USERS_POLICIES, createEntities, SYSTEM_ACTOR, type EntityService } from '../src/index';
import type { AuthorizationSwitches } from '../src/service/policy';

export const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
export const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
export const OWNER = 'urn:li:corpuser:olivia';

const context = (urn: string, ...privileges: string[]): ApiContext => ({
  actor: { urn, privileges: new Set(privileges) },
  requestId: 'test',
});
/** The callers of the face tests: roles as entities-api §11 gives them, and an owner of DATASET without a role. */
export const callers = {
  editor: context('urn:li:corpuser:eddie', Privilege.VIEW_ENTITY_PAGE, Privilege.EDIT_ENTITY),
  admin: context('urn:li:corpuser:ada', Privilege.VIEW_ENTITY_PAGE, Privilege.EDIT_ENTITY, Privilege.DELETE_ENTITY),
  nobody: context('urn:li:corpuser:nora'),
  owner: context(OWNER),
};

export const mcp = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});
export const tags = (...names: string[]) => ({ tags: names.map((name) => ({ tag: `urn:li:tag:${name}` })) });

/** What a call threw, as a client sees it (the host turns it into a status and a body). */
export async function refusal(call: () => unknown): Promise<{ status: number; message: string }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

/**
 * The entities module on a fresh database, with DATASET (owned by OWNER, tagged pii) and OTHER stored, and its faces'
 * handlers called as the host calls them: Rest.li actions with their parsed parameters, Rest.li reads with the raw key
 * and query, JSON routes by method and path.
 */
export async function facesOn(databases: Pick<TestSqlDatabases, 'open'>, authorization?: AuthorizationSwitches) {
  const entities = await createEntities({ db: await databases.open(), now: () => 1_700_000_000_000, authorization });
  const { module, service } = entities;
  await service.ingest(
    SYSTEM_ACTOR,
    [
      mcp(DATASET, 'ownership', { owners: [{ owner: OWNER, type: 'TECHNICAL_OWNER' }] }),
      mcp(DATASET, 'globalTags', tags('pii')),
      mcp(OTHER, 'status', { removed: false }),
    ].map((proposal) => ({ proposal, place: { action: 'test', path: 'seed' } })),
    { batch: true },
  );
  const action = (resource: string, name: string, params: unknown, as: ApiContext = callers.editor) => {
    const found = module.actions!.find((a) => a.resource === resource && a.name === name)!;
    return found.handler(parseActionParams(found, params), as) as Promise<unknown>;
  };
  const read = (resource: string, key: string | undefined, query = '', as: ApiContext = callers.editor) =>
    module.reads!.find((r) => r.resource === resource)!.handler(key, query, as) as Promise<any>;
  const route = (
    method: JsonRoute['method'],
    path: string,
    request: { params?: Record<string, string>; query?: string; body?: unknown } = {},
    as = callers.editor,
  ) =>
    module
      .routes!.find((r) => r.method === method && r.path === path)!
      .handler(as, {
        params: request.params ?? {},
        query: new URLSearchParams(request.query ?? ''),
        body: request.body,
      }) as Promise<{ status: number; headers?: Record<string, string>; body?: any }>;
  return { ...entities, action, read, route };
}

/**
 * DataHub's three default policies for all users made INACTIVE, as an operator would (an ingested `dataHubPolicyInfo`,
 * as updatePolicy writes it): for a test of what a user without a role is refused when nothing grants it views.
 */
export async function deactivateAllUsersPolicies(service: EntityService): Promise<void> {
  await service.ingest(
    SYSTEM_ACTOR,
    ALL_USERS_POLICIES.map(({ urn, info }) => ({
      proposal: { ...mcp(urn, 'dataHubPolicyInfo', { ...info, state: 'INACTIVE' }), entityType: 'dataHubPolicy' },
      place: { action: 'test', path: 'deactivate' },
    })),
    { batch: true },
  );
}
