import { print } from 'graphql';
import { readFileSync } from 'node:fs';
import { readUiDocuments } from '../../../apps/server/test/webui/ui-documents';

// DataHub's web UI (datahub-web-react at c731e725): its documents and the variables its pages send, as fixtures of apps/server.
const VARIABLES = JSON.parse(
  readFileSync(new URL('../../../apps/server/test/fixtures/datahub-web-react/variables.json', import.meta.url), 'utf8'),
) as Record<'queries' | 'mutations', Record<string, { variables: Record<string, unknown> }[]>>;
const OPERATIONS = new Map(readUiDocuments().operations.map((op) => [op.name, op]));

/** The UI's operation `name` (with the fragments it uses) and the variables its first call sends, `placeholders` filled in. */
export function uiCall(
  name: string,
  placeholders: Record<string, unknown> = {},
): { source: string; variableValues: Record<string, unknown> } {
  const operation = OPERATIONS.get(name);
  if (!operation) throw new Error(`The UI has no operation ${name}`);
  const calls = VARIABLES[operation.kind === 'mutation' ? 'mutations' : 'queries'][name];
  if (!calls?.length) throw new Error(`variables.json has no call of ${name}`);
  const variableValues = JSON.parse(JSON.stringify(calls[0]!.variables), (_key, value: unknown) =>
    typeof value === 'string' && Object.hasOwn(placeholders, value) ? placeholders[value] : value,
  ) as Record<string, unknown>;
  return { source: print(operation.document), variableValues };
}
