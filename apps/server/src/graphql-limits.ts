import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type GraphQLError, type ValidationContext } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from './config';
import { costLimitPlugin } from './graphql-cost';

/** Report each exceeded limit as a validation error (armor would throw at the first one). */
const reportAll = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/**
 * The operation limits, as envelop plugins so they run inside Yoga's pipeline: DataHub's depth limit and caps on
 * aliases, directives and tokens (graphql-armor, on the document), and the cost budget (graphql-cost.ts, once the
 * variables are known, before any resolver runs). A refused operation is a 400 whose message names the limit. With
 * introspection off, field suggestions are hidden too: they would leak the schema.
 */
export function graphqlLimitPlugins(limits: Config['graphql']): Plugin[] {
  const plugins: Plugin[] = [
    EnvelopArmorPlugin({
      maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, ...reportAll },
      costLimit: { enabled: false }, // armor's counts no list size: graphql-cost.ts replaces it
      maxAliases: { n: limits.maxAliases, ...reportAll },
      maxDirectives: { n: limits.maxDirectives, ...reportAll },
      maxTokens: { n: limits.maxTokens },
      blockFieldSuggestion: { enabled: !limits.introspection },
    }),
    costLimitPlugin(limits.maxComplexity),
  ];
  if (!limits.introspection) {
    plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  }
  return plugins;
}
