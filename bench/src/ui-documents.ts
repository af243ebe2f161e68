import { print } from 'graphql';
import { readUiDocuments } from '../../apps/server/test/webui/ui-documents.ts';

let operations: Map<string, string> | undefined;

/**
 * The query text DataHub's web UI sends for operation `name`: its document from the fixtures the server's tests use
 * (`apps/server/test/fixtures/datahub-web-react/graphql/`), with every fragment it spreads, as the UI's codegen
 * joins them.
 */
export function uiOperation(name: string): string {
  operations ??= new Map(readUiDocuments().operations.map((op) => [op.name, print(op.document)]));
  const text = operations.get(name);
  if (!text) throw new Error(`the UI has no operation named ${name}`);
  return text;
}
