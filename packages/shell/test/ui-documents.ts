import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';

// The UI's own documents and the variables its pages send (apps/server/test/fixtures/datahub-web-react, DataHub c731e725).
const UI = new URL('../../../apps/server/test/fixtures/datahub-web-react/', import.meta.url);
const definitions = readdirSync(new URL('graphql/', UI))
  .filter((f) => f.endsWith('.graphql'))
  .flatMap((f) => parse(readFileSync(new URL(`graphql/${f}`, UI), 'utf8')).definitions);
const fragments = new Map(
  definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
);
/** The UI's operation `name` with every fragment it uses, as one document. */
export function ui(name: string): string {
  const operation = definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!operation) throw new Error(`no UI operation ${name}`);
  const used = new Map<string, DefinitionNode>();
  const collect = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread: (spread) => {
        const fragment = fragments.get(spread.name.value)!;
        if (used.has(spread.name.value)) return;
        used.set(spread.name.value, fragment);
        collect(fragment);
      },
    });
  collect(operation);
  return [operation, ...used.values()].map((d) => print(d)).join('\n');
}
const VARIABLES = JSON.parse(readFileSync(new URL('variables.json', UI), 'utf8')) as {
  mutations: Record<string, { variables: Record<string, unknown> }[]>;
};
/** The variables the UI sends for `name` (the `index`th case), placeholders replaced. */
export function uiVariables(name: string, placeholders: Record<string, string> = {}, index = 0): Record<string, unknown> {
  const text = JSON.stringify(VARIABLES.mutations[name]![index]!.variables);
  const replace = (value: string) => Object.entries(placeholders).reduce((text, [name, urn]) => text.split(name).join(urn), value);
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? replace(value) : value));
}
