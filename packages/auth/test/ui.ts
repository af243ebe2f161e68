import { print } from 'graphql';
import { readUiDocuments } from '../../../apps/server/test/webui/ui-documents';
import { uiCallVariables } from '../../../apps/server/test/webui/ui-queries';

// DataHub's web UI (datahub-web-react at c731e725): its documents and the variables its pages send, as fixtures of apps/server.
const OPERATIONS = new Map(readUiDocuments().operations.map((op) => [op.name, op]));

/** The UI's operation `name` (with the fragments it uses) and the variables its first call sends, `placeholders` filled in. */
export function uiCall(name: string, placeholders: Record<string, unknown> = {}): { source: string; variableValues: Record<string, any> } {
  const operation = OPERATIONS.get(name);
  if (!operation) throw new Error(`The UI has no operation ${name}`);
  const variableValues = uiCallVariables(operation.kind === 'mutation' ? 'mutations' : 'queries', name, placeholders);
  return { source: print(operation.document), variableValues };
}
