import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  TypeInfo,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  defaultFieldResolver,
  isAbstractType,
  isInterfaceType,
  isListType,
  getNullableType,
  isInputObjectType,
  isLeafType,
  isObjectType,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * The cost model behind GRAPHQL_QUERY_COMPLEXITY_LIMIT (README, Configuration): a query costs the entities and page
 * items it reads. Two checks share the budget.
 *
 * Priced before any resolver runs (`operationCost`):
 * - a page — a field whose arguments ask for a number of items (`count`, `first`, `last`, `limit`, as arguments or as
 *   fields of an input object argument such as `searchAcrossEntities(input: {count})`; or a list of `urns`), variables
 *   and defaults resolved — costs the items it asks for (DEFAULT_PAGE_SIZE when it asks none);
 * - what one item of a page selects is not multiplied: it is read for all the items at once, a level at a time (the
 *   request's loaders), and its size is bounded by the document's (GRAPHQL_QUERY_MAX_TOKENS, GRAPHQL_QUERY_DEPTH_LIMIT);
 * - a page inside a page counts one item: how many items it gives depends on the data (a glossary of 1,000 root nodes
 *   asking 500 children of each holds a few dozen nodes), so the meter (below) charges what it really gives;
 * - outside pages, each field whose value is an entity counts 1 (an entity read); leaves and other objects count 0;
 * - fields are merged by response key as execution merges them: a fragment counts once per place it is spread, two
 *   aliases count twice; of an interface or union, the costliest of its object types counts.
 *
 * Metered while it runs (`costLimitPlugin`): each page, when its resolver answers, is charged the items it gave; once
 * the charges pass the budget, every page still to resolve is refused before it reads, and the answer is the budget
 * error alone. A page nested in a page is so paid for as often as the data makes it run.
 *
 * DataHub's own web UI, every query with the variables its pages send, costs at most 4,000 so (test/webui); the
 * default budget is 5,000.
 */
const SIZE_ARGUMENTS = new Set(['count', 'first', 'last', 'limit']);
/** List arguments whose length is the number of items asked (`entities(urns: [...])`). */
const LIST_ARGUMENTS = new Set(['urns']);

/** A selection's price: the entities it reads outside pages, and the items of its pages. */
interface Priced {
  item: number;
  pages: number;
}
const FREE: Priced = { item: 0, pages: 0 };
const ENTITY_COST = 1;
const total = (priced: Priced) => priced.item + priced.pages;

/**
 * Items a page of DataHub's asks for when the caller gives no size: its search resolvers default to 10
 * (SearchAcrossEntitiesResolver.DEFAULT_COUNT), its list resolvers to 20 (ListDomainsResolver and the others); the
 * larger counts.
 */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * DataHub's cap on a requested result count: above `max`, or below 0, the count becomes `apiDefault`; it refuses only
 * in strict mode, off by default (application.yaml `searchService.limit.results`: SEARCH_SERVICE_LIMIT_RESULTS_MAX
 * 10000, _API_DEFAULT 5000, _STRICT false; ConfigUtils.applyLimit). The graph and time-series services have the same.
 */
export const RESULTS_MAX = 10_000;
export const RESULTS_API_DEFAULT = 5_000;

/**
 * Elasticsearch pages through at most 10,000 hits (`index.max_result_window`, named by DataHub's GraphQL guide,
 * docs/api/graphql/getting-started.md): DataHub's search fails past `start + count` = 10,000. mds refuses such a page
 * with a 400 before running anything.
 */
export const RESULT_WINDOW = 10_000;

/** A requested size as DataHub reads it (ConfigUtils.applyLimit, non-strict). */
export const cappedSize = (asked: number) => (asked < 0 || asked > RESULTS_MAX ? RESULTS_API_DEFAULT : asked);

/** The cost of an operation, or why it may not run at all. */
export interface CostOutcome {
  cost: number;
  /** A refusal that is not about the budget (a page past the result window). */
  refusal?: GraphQLError;
}

type Variables = Record<string, unknown>;

/**
 * The variables of `operation` as execution coerces them, or undefined when they do not coerce: execution then refuses
 * them itself, before any resolver runs.
 */
function coerceVariables(schema: GraphQLSchema, operation: OperationDefinitionNode, raw: unknown): Variables | undefined {
  if (!operation.variableDefinitions?.length) return {};
  const coerced = getVariableValues(schema, operation.variableDefinitions, (raw ?? {}) as Variables, { maxErrors: 1 });
  return coerced.errors ? undefined : coerced.coerced;
}

/**
 * The cost of the operation `operationName` of `document` (already validated against `schema`) with the caller's raw
 * `variables`. Variables that do not coerce leave the outcome at 0: execution refuses them before any resolver runs.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: unknown,
): CostOutcome {
  const operation = getOperationAST(document, operationName);
  const variables = operation && coerceVariables(schema, operation, rawVariables);
  return operation && variables ? costOf(schema, document, operation, variables) : { cost: 0 };
}

function costOf(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Variables): CostOutcome {
  const root = rootType(schema, operation);
  if (!root) return { cost: 0 };
  try {
    return { cost: total(new CostCounter(schema, document, variables).selection(root, [operation.selectionSet])) };
  } catch (error) {
    if (error instanceof WindowError) return { cost: 0, refusal: error.refusal };
    throw error;
  }
}

function rootType(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLObjectType | null | undefined {
  if (operation.operation === 'query') return schema.getQueryType();
  if (operation.operation === 'mutation') return schema.getMutationType();
  return schema.getSubscriptionType();
}

class WindowError extends Error {
  constructor(readonly refusal: GraphQLError) {
    super(refusal.message);
  }
}

/** One computation: fragments by name, selection-set ids for the memo, and whether any variable was read. */
class CostCounter {
  readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly ids = new Map<SelectionSetNode, number>();
  private readonly memo = new Map<string, Priced>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
    private readonly variables: Record<string, unknown>,
  ) {
    for (const definition of document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(definition.name.value, definition);
    }
  }

  /** What `sets`, merged, cost on a value of `type` (one item and the pages in it): of an abstract type, the costliest object type. */
  selection(type: GraphQLNamedType, sets: readonly SelectionSetNode[], inPage = false): Priced {
    if (isObjectType(type)) return this.objectSelection(type, sets, inPage);
    if (!isAbstractType(type)) return FREE;
    let most = FREE;
    for (const object of this.schema.getPossibleTypes(type)) {
      const priced = this.objectSelection(object, sets, inPage);
      if (total(priced) > total(most)) most = priced;
    }
    return most;
  }

  private objectSelection(type: GraphQLObjectType, sets: readonly SelectionSetNode[], inPage: boolean): Priced {
    const key = `${type.name}:${inPage ? 'p' : ''}${sets.map((set) => this.idOf(set)).join(',')}`;
    const known = this.memo.get(key);
    if (known !== undefined) return known;
    const fields = new Map<string, FieldNode[]>();
    this.collect(type, sets, fields, new Set());
    const priced = { item: 0, pages: 0 };
    for (const nodes of fields.values()) {
      const field = this.field(type, nodes, inPage);
      priced.item += field.item;
      priced.pages += field.pages;
    }
    this.memo.set(key, priced);
    return priced;
  }

  /** The fields `sets` select on `type`, by response key, as execution collects them (graphql-js collectFields). */
  private collect(type: GraphQLObjectType, sets: readonly SelectionSetNode[], into: Map<string, FieldNode[]>, spread: Set<string>): void {
    for (const set of sets) {
      for (const selection of set.selections) {
        if (!this.included(selection)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          const nodes = into.get(key);
          if (nodes) nodes.push(selection);
          else into.set(key, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (this.applies(selection.typeCondition?.name.value, type)) this.collect(type, [selection.selectionSet], into, spread);
        } else {
          const name = selection.name.value;
          const fragment = this.fragments.get(name);
          if (spread.has(name) || !fragment || !this.applies(fragment.typeCondition.name.value, type)) continue;
          spread.add(name);
          this.collect(type, [fragment.selectionSet], into, spread);
        }
      }
    }
  }

  private field(parent: GraphQLObjectType, nodes: readonly FieldNode[], inPage: boolean): Priced {
    const first = nodes[0]!;
    const name = first.name.value;
    // Introspection answers from the schema, not the store; it was never counted.
    if (name === '__schema' || name === '__type') return FREE;
    if (name === '__typename') return FREE;
    const definition = parent.getFields()[name];
    if (!definition) return FREE; // validation has refused the document already
    const type = getNamedType(definition.type);
    if (isLeafType(type)) return FREE;
    const sets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
    const own = this.isEntity(type) ? ENTITY_COST : 0;
    if (!sizeArguments(definition)) {
      const inner = this.selection(type, sets, inPage);
      return { item: own + inner.item, pages: inner.pages };
    }
    // A page: the items it asks for. What each item selects is read for all of them at once, a level at a time (the
    // request's loaders), and is bounded by the document's size (GRAPHQL_QUERY_TOKEN_LIMIT), so it is not multiplied.
    // Inside another page, how many items a page gives depends on the data (a glossary of 1,000 root nodes asking 500
    // children of each has a few dozen nodes): it is priced as one item here, and the meter charges what it gives.
    const size = this.pageSize(definition, first);
    return { item: 0, pages: (inPage ? 1 : size) + this.selection(type, sets, true).pages };
  }

  /** Whether values of `type` are entities (it implements DataHub's `Entity`, or is an interface or union of such). */
  private isEntity(type: GraphQLNamedType): boolean {
    const entity = this.schema.getType('Entity');
    if (!entity || !isInterfaceType(entity)) return false;
    if (type === entity) return true;
    if (isObjectType(type)) return this.schema.isSubType(entity, type);
    return isAbstractType(type) && this.schema.getPossibleTypes(type).every((object) => this.schema.isSubType(entity, object));
  }

  /**
   * How many items `node` asks of `field`: 1 when the field takes no size, DEFAULT_PAGE_SIZE when it takes one the
   * caller left out. A page reaching past the result window is refused.
   */
  private pageSize(field: GraphQLField<unknown, unknown>, node: FieldNode): number {
    const sizes = sizeArguments(field);
    if (!sizes) return 1;
    const { size, start } = pageAsked(field, sizes, node, this.variables);
    if (start + size > RESULT_WINDOW) {
      throw new WindowError(
        refusal(
          `Result window is too large: start + count must be at most ${RESULT_WINDOW}, but ${field.name} asks for ${start} + ${size} = ${start + size}`,
          node,
        ),
      );
    }
    return size;
  }

  private applies(condition: string | undefined, type: GraphQLObjectType): boolean {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = this.schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType) && this.schema.isSubType(conditionType, type);
  }

  private included(node: SelectionNode): boolean {
    return included(node, this.variables);
  }

  private idOf(set: SelectionSetNode): number {
    let id = this.ids.get(set);
    if (id === undefined) this.ids.set(set, (id = this.ids.size));
    return id;
  }
}

/**
 * The page `node` asks of `field` (which declares `sizes`): its size as DataHub reads it, DEFAULT_PAGE_SIZE when left
 * out (or when the arguments do not coerce: execution refuses them before the resolver runs), and its start (0 when
 * none).
 */
function pageAsked(field: GraphQLField<unknown, unknown>, sizes: { inputs: string[] }, node: FieldNode, variables: Variables) {
  let values: Record<string, unknown>;
  try {
    values = getArgumentValues(field, node, variables);
  } catch {
    return { size: DEFAULT_PAGE_SIZE, start: 0 };
  }
  let asked: number | undefined;
  let listed = 0;
  let start = 0;
  const read = (object: Record<string, unknown>) => {
    for (const [name, value] of Object.entries(object)) {
      if (Array.isArray(value) && LIST_ARGUMENTS.has(name)) listed = Math.max(listed, value.length);
      if (typeof value !== 'number') continue;
      if (SIZE_ARGUMENTS.has(name)) asked = asked === undefined ? value : Math.max(asked, value);
      else if (name === 'start') start = value;
    }
  };
  read(values);
  for (const name of sizes.inputs) {
    const input = values[name];
    if (input && typeof input === 'object' && !Array.isArray(input)) read(input as Record<string, unknown>);
  }
  if (asked === undefined && listed) return { size: listed, start };
  return { size: Math.max(listed, asked === undefined ? DEFAULT_PAGE_SIZE : cappedSize(asked)), start };
}

/** `@skip` and `@include`, as execution reads them. */
function included(node: SelectionNode, variables: Variables): boolean {
  if (!node.directives?.length) return true;
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  } catch {
    return true;
  }
}

/** The size arguments a field declares: whether it has any, and which of its arguments are input objects holding them. */
const sizeArgumentCache = new WeakMap<GraphQLField<unknown, unknown>, { inputs: string[] } | null>();
function sizeArguments(field: GraphQLField<unknown, unknown>): { inputs: string[] } | null {
  let found = sizeArgumentCache.get(field);
  if (found !== undefined) return found;
  let direct = false;
  const inputs: string[] = [];
  for (const argument of field.args) {
    if (SIZE_ARGUMENTS.has(argument.name) || (LIST_ARGUMENTS.has(argument.name) && isListType(getNullableType(argument.type))))
      direct = true;
    const type = getNamedType(argument.type);
    if (isInputObjectType(type) && Object.keys(type.getFields()).some((name) => SIZE_ARGUMENTS.has(name))) inputs.push(argument.name);
  }
  found = direct || inputs.length ? { inputs } : null;
  sizeArgumentCache.set(field, found);
  return found;
}

function usesVariables(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(usesVariables);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => usesVariables(field.value));
  return false;
}

/** A refusal of the whole request: a 400, like a validation error. */
const refusal = (message: string, node?: FieldNode) =>
  new GraphQLError(message, { nodes: node, extensions: { code: 400, type: 'BAD_REQUEST' } });

/** The message of a query over the budget, naming both numbers and the variable that sets the budget. */
export const overBudgetMessage = (budget: number, cost: number) =>
  `Query cost limit of ${budget} exceeded: this query costs ${cost} (GRAPHQL_QUERY_COMPLEXITY_LIMIT; a page asking for n items costs n)`;

/** The message of a query whose pages, as they ran, came to cost more than the budget. */
export const meteredOverBudgetMessage = (budget: number, spent: number) =>
  `Query cost limit of ${budget} exceeded: the pages of this query gave ${spent} items so far (GRAPHQL_QUERY_COMPLEXITY_LIMIT; every item of every page counts, a page inside a page as often as it runs)`;

/**
 * What a document's cost can depend on: the fields that declare a size (whose pages the variables may size) and the
 * selections `@skip`/`@include` switch with a variable. Found once per document.
 */
interface Dependencies {
  pages: { field: GraphQLField<unknown, unknown>; sizes: { inputs: string[] }; node: FieldNode }[];
  switches: SelectionNode[];
  /** Outcomes by operation and the values of the above; bounded (see COSTS_KEPT). */
  costs: Map<string, number>;
}

/** Outcomes kept per document: a client pages with a few sizes, not thousands. */
const COSTS_KEPT = 64;

function dependenciesOf(schema: GraphQLSchema, document: DocumentNode): Dependencies {
  const found: Dependencies = { pages: [], switches: [], costs: new Map() };
  const typeInfo = new TypeInfo(schema);
  const switched = (node: SelectionNode) => {
    if (node.directives?.some((directive) => directive.arguments?.some((argument) => usesVariables(argument.value)))) {
      found.switches.push(node);
    }
  };
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        switched(node);
        const field = typeInfo.getFieldDef();
        const sizes = field && sizeArguments(field);
        if (field && sizes) found.pages.push({ field, sizes, node });
      },
      InlineFragment: switched,
      FragmentSpread: switched,
    }),
  );
  return found;
}

/**
 * The budget as an envelop plugin: once the document is valid and the variables are known, and before the executor
 * is called, an operation over `budget` (or asking a page past the result window) is answered with a 400 and no
 * resolver runs.
 *
 * Pricing a large document against a large schema takes milliseconds (tens for DataHub's own search page against
 * DataHub's own schema), so a price is kept with the document (which the executor keeps by text) under the values
 * it can depend on: the sizes its pages ask for and its variable switches. A client paging through results with the
 * same size is priced once; a page past the result window is priced (and refused) every time.
 */
export function costLimitPlugin(budget: number): Plugin {
  const byDocument = new WeakMap<DocumentNode, Dependencies>();
  const outcomeOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, raw: unknown) => {
    let dependencies = byDocument.get(document);
    if (!dependencies) byDocument.set(document, (dependencies = dependenciesOf(schema, document)));
    let key = operationName ?? '';
    // A document no variable can price differently (a tag read) is priced once, its variables never looked at.
    const fixed = dependencies.pages.length === 0 && dependencies.switches.length === 0;
    const known = fixed ? dependencies.costs.get(key) : undefined;
    if (known !== undefined) return { cost: known };
    const operation = getOperationAST(document, operationName);
    const variables = operation && (fixed ? {} : coerceVariables(schema, operation, raw));
    if (!operation || !variables) return { cost: 0 };
    for (const { field, sizes, node } of dependencies.pages) {
      const { size, start } = pageAsked(field, sizes, node, variables);
      if (start + size > RESULT_WINDOW) return costOf(schema, document, operation, variables);
      key += `,${size}`;
    }
    for (const node of dependencies.switches) key += included(node, variables) ? '+' : '-';
    let cost = dependencies.costs.get(key);
    if (cost === undefined) {
      const outcome = costOf(schema, document, operation, variables);
      if (outcome.refusal) return outcome;
      if (dependencies.costs.size >= COSTS_KEPT) dependencies.costs.clear();
      dependencies.costs.set(key, (cost = outcome.cost));
    }
    return { cost };
  };
  const meters = new WeakMap<object, Meter>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const outcome: CostOutcome = outcomeOf(args.schema, args.document, args.operationName, args.variableValues);
      const refused = outcome.refusal ?? (outcome.cost > budget ? refusal(overBudgetMessage(budget, outcome.cost)) : undefined);
      if (refused) return setResultAndStopExecution({ errors: [refused] });
      // Only an operation with pages is metered (a tag read has none).
      const context = args.contextValue as object | undefined;
      if (!context || !byDocument.get(args.document)?.pages.length) return;
      meterPagesOf(args.schema, meters);
      const meter = new Meter(budget);
      meters.set(context, meter);
      return {
        onExecuteDone({ setResult }) {
          meters.delete(context);
          if (meter.over) setResult({ errors: [meter.over] });
        },
      };
    },
  };
}

/** What the pages of one execution have given so far, and the refusal once that is more than the budget. */
class Meter {
  spent = 0;
  over: GraphQLError | undefined;

  constructor(private readonly budget: number) {}

  /** Charges a page the items it answered with (`value`). */
  charge<T>(value: T, info: GraphQLResolveInfo): T {
    this.spent += itemsIn(value, info);
    if (this.spent > this.budget) throw (this.over ??= refusal(meteredOverBudgetMessage(this.budget, this.spent)));
    return value;
  }
}

/**
 * How many items a page's answer holds: a list's length, or the longest list among the fields the query selects of
 * the object it answers (`searchResults`, `relationships`; facets the resolver computed but nobody asked for do not count).
 */
function itemsIn(value: unknown, info: GraphQLResolveInfo): number {
  if (Array.isArray(value)) return value.length;
  if (value === null || typeof value !== 'object') return value === null || value === undefined ? 0 : 1;
  let most = 0;
  for (const name of selectedNames(info)) {
    const field = (value as Record<string, unknown>)[name];
    if (Array.isArray(field)) most = Math.max(most, field.length);
  }
  return most;
}

/** The names of the fields selected directly under the page's field (through fragments, not into sub-selections). */
function selectedNames(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const visitSet = (set: SelectionSetNode | undefined, seen: Set<string>) => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visitSet(selection.selectionSet, seen);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        visitSet(info.fragments[selection.name.value]?.selectionSet, seen);
      }
    }
  };
  for (const node of info.fieldNodes) visitSet(node.selectionSet, new Set());
  return names;
}

/** Schemas whose page resolvers are metered already. */
const metered = new WeakSet<GraphQLSchema>();

/**
 * Wraps, once per schema, the resolver of every page (a field with a size argument) so that each answer is charged to
 * its execution's meter, and a page asked for once the budget is spent is refused before it reads anything.
 */
function meterPagesOf(schema: GraphQLSchema, meters: WeakMap<object, Meter>): void {
  if (metered.has(schema)) return;
  metered.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!sizeArguments(field)) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const meter = meters.get(context as object);
        if (!meter) return resolve(source, args, context, info);
        if (meter.over) throw meter.over;
        const answer = resolve(source, args, context, info);
        return isPromise(answer) ? answer.then((value) => meter.charge(value, info)) : meter.charge(answer, info);
      };
    }
  }
}

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';
