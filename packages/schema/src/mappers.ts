/**
 * What a resolver answers for an entity whose fields resolve themselves (codegen `mappers` in codegen.ts): its urn,
 * and what the urn says (type, name, ids). Every other field has a resolver reading the entity's aspects, so a parent
 * of these types is never more than this.
 */
export interface EntityParent {
  __typename?: string;
  urn: string;
  type?: string;
  [field: string]: unknown;
}

/** A folder of an entity's browse path (an entry of browsePathsV2): its name, and the urn its `entity` field resolves. */
export interface BrowsePathFolder {
  name: string;
  urn: string | null;
}
