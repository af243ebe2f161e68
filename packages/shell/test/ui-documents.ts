import { print } from 'graphql';
import { readUiDocuments } from '../../../apps/server/test/webui/ui-documents';
import { uiCallVariables } from '../../../apps/server/test/webui/ui-queries';

// The UI's own documents and the variables its pages send (apps/server/test/fixtures/datahub-web-react, DataHub c731e725).
const OPERATIONS = new Map(readUiDocuments().operations.map((op) => [op.name, op]));

/** The UI's operation `name` with every fragment it uses, as one document. */
export function ui(name: string): string {
  const operation = OPERATIONS.get(name);
  if (!operation) throw new Error(`no UI operation ${name}`);
  return print(operation.document);
}

/** The variables the UI sends for the mutation `name` (the `index`th case), placeholders replaced. */
export const uiVariables = (name: string, placeholders: Record<string, string> = {}, index = 0): Record<string, unknown> =>
  uiCallVariables('mutations', name, placeholders, index);
