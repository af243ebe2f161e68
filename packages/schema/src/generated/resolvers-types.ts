import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { ApiContext } from '../context';
export type Maybe<T> = T | null | undefined;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A 64-bit integer (milliseconds since the epoch, sizes). Serialised as a JSON number, as DataHub does. */
  Long: { input: number; output: number; }
};

export type AppConfig = {
  __typename?: 'AppConfig';
  /** The version of mds that is answering. */
  appVersion: Maybe<Scalars['String']['output']>;
};

/** Who did something, and when. */
export type AuditStamp = {
  __typename?: 'AuditStamp';
  /** The URN of the actor. */
  actor: Maybe<Scalars['String']['output']>;
  /** Milliseconds since the epoch. */
  time: Scalars['Long']['output'];
};

/** A user of the platform. */
export type CorpUser = Entity & {
  __typename?: 'CorpUser';
  type: EntityType;
  urn: Scalars['String']['output'];
  username: Scalars['String']['output'];
};

/** Anything addressable by a URN. */
export type Entity = {
  type: EntityType;
  urn: Scalars['String']['output'];
};

/** The kinds of entity this server knows; a subset of DataHub's EntityType. */
export type EntityType =
  | 'ACCESS_TOKEN'
  | 'CORP_USER'
  | 'DATAHUB_ROLE'
  | 'TAG';

/** Filters a listing by one field, as DataHub's search inputs do. */
export type FacetFilterInput = {
  field: Scalars['String']['input'];
  negated?: InputMaybe<Scalars['Boolean']['input']>;
  /** @deprecated Use values */
  value?: InputMaybe<Scalars['String']['input']>;
  values?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type Query = {
  __typename?: 'Query';
  /** Static facts about this server. */
  appConfig: Maybe<AppConfig>;
};



export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;




/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = {
  Entity: ( Partial<CorpUser> );
};

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  AppConfig: ResolverTypeWrapper<Partial<AppConfig>>;
  AuditStamp: ResolverTypeWrapper<Partial<AuditStamp>>;
  Boolean: ResolverTypeWrapper<Partial<Scalars['Boolean']['output']>>;
  CorpUser: ResolverTypeWrapper<Partial<CorpUser>>;
  Entity: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['Entity']>;
  EntityType: ResolverTypeWrapper<Partial<EntityType>>;
  FacetFilterInput: ResolverTypeWrapper<Partial<FacetFilterInput>>;
  Long: ResolverTypeWrapper<Partial<Scalars['Long']['output']>>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  String: ResolverTypeWrapper<Partial<Scalars['String']['output']>>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  AppConfig: Partial<AppConfig>;
  AuditStamp: Partial<AuditStamp>;
  Boolean: Partial<Scalars['Boolean']['output']>;
  CorpUser: Partial<CorpUser>;
  Entity: ResolversInterfaceTypes<ResolversParentTypes>['Entity'];
  FacetFilterInput: Partial<FacetFilterInput>;
  Long: Partial<Scalars['Long']['output']>;
  Query: Record<PropertyKey, never>;
  String: Partial<Scalars['String']['output']>;
};

export type AppConfigResolvers<ContextType = ApiContext, ParentType extends ResolversParentTypes['AppConfig'] = ResolversParentTypes['AppConfig']> = {
  appVersion?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type AuditStampResolvers<ContextType = ApiContext, ParentType extends ResolversParentTypes['AuditStamp'] = ResolversParentTypes['AuditStamp']> = {
  actor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  time?: Resolver<ResolversTypes['Long'], ParentType, ContextType>;
};

export type CorpUserResolvers<ContextType = ApiContext, ParentType extends ResolversParentTypes['CorpUser'] = ResolversParentTypes['CorpUser']> = {
  type?: Resolver<ResolversTypes['EntityType'], ParentType, ContextType>;
  urn?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  username?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
};

export type EntityResolvers<ContextType = ApiContext, ParentType extends ResolversParentTypes['Entity'] = ResolversParentTypes['Entity']> = {
  __resolveType: TypeResolveFn<'CorpUser', ParentType, ContextType>;
};

export interface LongScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['Long'], any> {
  name: 'Long';
}

export type QueryResolvers<ContextType = ApiContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  appConfig?: Resolver<Maybe<ResolversTypes['AppConfig']>, ParentType, ContextType>;
};

export type Resolvers<ContextType = ApiContext> = {
  AppConfig?: AppConfigResolvers<ContextType>;
  AuditStamp?: AuditStampResolvers<ContextType>;
  CorpUser?: CorpUserResolvers<ContextType>;
  Entity?: EntityResolvers<ContextType>;
  Long?: GraphQLScalarType;
  Query?: QueryResolvers<ContextType>;
};

