import { badRequest, parseActionParams, type ApiContext, type RestliAction, type RestliResource } from '@mds/schema';

/** Finds and runs the Rest.li action named by `?action=`; the caller sends `{"value": result}`. */
export function createRestliDispatcher(actions: readonly RestliAction[]) {
  const byResource = new Map<RestliResource, Map<string, RestliAction>>();
  for (const action of actions) {
    const named = byResource.get(action.resource) ?? new Map<string, RestliAction>();
    if (named.has(action.name)) throw new Error(`Two packages register ${action.resource}?action=${action.name}`);
    byResource.set(action.resource, named.set(action.name, action));
  }

  return {
    resources: [...byResource.keys()],
    /** Every action, for the documentation page. */
    actions: [...actions],

    /** The action for a request, or a 400 listing what this resource offers. */
    find(resource: RestliResource, name: string | null): RestliAction {
      const named = byResource.get(resource) ?? new Map<string, RestliAction>();
      const action = name ? named.get(name) : undefined;
      if (action) return action;
      const known = [...named.keys()].sort().join(', ');
      throw badRequest(
        name
          ? `Unknown action '${name}' on /${resource}. Known actions: ${known}`
          : `Missing ?action= on /${resource}. Known actions: ${known}`,
      );
    },

    async run(action: RestliAction, body: unknown, context: ApiContext): Promise<{ value: unknown }> {
      const params = parseActionParams(action, body);
      return { value: await action.handler(params, context) };
    },
  };
}
export type RestliDispatcher = ReturnType<typeof createRestliDispatcher>;
