import { bootstrapPlaceholders, readUiVariables, runUiOperation, type UiCall } from '../webui/ui-queries';
import { readUiDocuments, type UiOperation } from '../webui/ui-documents';
import type { Mds } from './mds';

const documents = readUiDocuments();
const variables = readUiVariables();

/**
 * Sends one of DataHub's web UI mutations as the UI does (its document from fixtures/datahub-web-react, the variables
 * of variables.json with the bootstrap sample's placeholders filled), as the holder of `token`. `overrides` replaces
 * placeholder values (an urn the test created, say); `change` edits the filled variables (a bad input).
 */
export function sendUiMutation(
  mds: Mds,
  name: string,
  options: { token?: string; overrides?: Record<string, unknown>; call?: number; change?: (input: Record<string, any>) => void } = {},
): Promise<{ status: number; body: any }> {
  const op = documents.operations.find((o): o is UiOperation => o.kind === 'mutation' && o.name === name);
  const call = variables.mutations[name]?.[options.call ?? 0];
  if (!op || !call) throw new Error(`no UI mutation ${name} with variables`);
  const values = { ...bootstrapPlaceholders().values, ...options.overrides };
  const sent: UiCall = options.change ? { ...call, variables: structuredClone(call.variables) } : call;
  if (options.change) options.change(sent.variables as Record<string, any>);
  return runUiOperation(
    async (body) => {
      const res = await mds.clientFor(options.token ?? mds.rootToken).post('/api/graphql', body);
      return { status: res.status, body: res.body };
    },
    op,
    sent,
    values,
  );
}

/** The latest value of an aspect as the service stores it (undefined when absent). */
export async function storedAspect(mds: Mds, urn: string, aspect: string): Promise<Record<string, any> | undefined> {
  return (await mds.domains.entities.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
}
