import {
  Kind,
  NoUnusedFragmentsRule,
  parse,
  print,
  specifiedRules,
  validate,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';

/** DataHub's web UI's GraphQL documents (`datahub-web-react/src/graphql/*.graphql`), copied as fixtures. */
export const UI_DOCUMENTS = new URL('../fixtures/datahub-web-react/graphql/', import.meta.url);

/** One operation of the UI: the file it is written in, its kind and its name. */
export interface UiOperation {
  file: string;
  kind: 'query' | 'mutation' | 'subscription';
  name: string;
  node: OperationDefinitionNode;
  /** The operation with every fragment it uses, directly or through other fragments, as one document. */
  document: DocumentNode;
}

export interface UiFragment {
  name: string;
  typeCondition: string;
  node: FragmentDefinitionNode;
  document: DocumentNode;
}

/** How an operation or fragment is named in the ratchet lists: `dataset.graphql: query getDataset`. */
export const operationId = (op: Pick<UiOperation, 'file' | 'kind' | 'name'>) => `${op.file}: ${op.kind} ${op.name}`;

const spreadsOf = (node: DefinitionNode) => {
  const names = new Set<string>();
  visit(node, { FragmentSpread: (spread) => void names.add(spread.name.value) });
  return names;
};

/**
 * Reads every document of the UI. Fragments are shared across files, as the UI's codegen shares them: an operation may
 * use a fragment written in another file. Three fragments are written twice (in `assertion.graphql`), identically; a
 * name written twice with different text would be an error.
 */
export function readUiDocuments(folder: URL = UI_DOCUMENTS): { files: string[]; operations: UiOperation[]; fragments: UiFragment[] } {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.graphql'))
    .sort();
  const fragmentNodes = new Map<string, FragmentDefinitionNode>();
  const operationNodes: { file: string; node: OperationDefinitionNode }[] = [];
  for (const file of files) {
    for (const definition of parse(readFileSync(new URL(file, folder), 'utf8')).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) {
        const name = definition.name.value;
        const earlier = fragmentNodes.get(name);
        if (earlier && print(earlier) !== print(definition)) throw new Error(`fragment ${name} is written twice, differently (${file})`);
        fragmentNodes.set(name, definition);
      } else if (definition.kind === Kind.OPERATION_DEFINITION) {
        if (!definition.name) throw new Error(`${file} has an operation without a name`);
        operationNodes.push({ file, node: definition });
      }
    }
  }

  const closure = (root: DefinitionNode): FragmentDefinitionNode[] => {
    const seen = new Map<string, FragmentDefinitionNode>();
    const pending = [...spreadsOf(root)];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (seen.has(name)) continue;
      const fragment = fragmentNodes.get(name);
      if (!fragment) continue; // left for validation to report as an unknown fragment
      seen.set(name, fragment);
      pending.push(...spreadsOf(fragment));
    }
    return [...seen.values()].sort((a, b) => (a.name.value < b.name.value ? -1 : 1));
  };
  const documentOf = (root: DefinitionNode): DocumentNode => ({
    kind: Kind.DOCUMENT,
    definitions: [root, ...closure(root).filter((f) => f !== root)],
  });

  const operations = operationNodes.map(({ file, node }) => ({
    file,
    kind: node.operation,
    name: node.name!.value,
    node,
    document: documentOf(node),
  }));
  const fragments = [...fragmentNodes.values()]
    .map((node) => ({ name: node.name.value, typeCondition: node.typeCondition.name.value, node, document: documentOf(node) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  return { files, operations, fragments };
}

/**
 * Validation stops at the third error: whether a document validates, and the first reasons why not, are all the tests
 * use, and a broken document of the UI's size can give thousands of errors, each with its "did you mean" suggestions.
 */
const MAX_ERRORS = 3;

/** GraphQL's validation of an operation document against a schema (at most MAX_ERRORS errors). */
export const validateOperation = (schema: GraphQLSchema, op: Pick<UiOperation, 'document'>): readonly GraphQLError[] =>
  withoutAbortNotice(validate(schema, op.document, specifiedRules, { maxErrors: MAX_ERRORS }));

/** graphql-js adds "Too many validation errors …" when it stops early: a notice, not a reason. */
const withoutAbortNotice = (errors: readonly GraphQLError[]) => errors.filter((e) => !e.message.startsWith('Too many validation errors'));

/** A fragment alone is not an executable document; validated with every rule but "fragments must be used". */
const fragmentRules = specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule);
export const validateFragment = (schema: GraphQLSchema, fragment: UiFragment): readonly GraphQLError[] =>
  withoutAbortNotice(validate(schema, fragment.document, fragmentRules, { maxErrors: MAX_ERRORS }));
