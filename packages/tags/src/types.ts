import type { OwnershipUpdate } from '@mds/schema';

/** Who did something to a tag, and when (milliseconds since the epoch). */
export interface AuditStamp {
  time: number;
  actor: string;
}

/** One owner of a tag, as DataHub's `ownership` aspect lists it. */
export interface TagOwner {
  /** The owner's urn (`urn:li:corpuser:…` or `urn:li:corpGroup:…`). */
  owner: string;
  /** TECHNICAL_OWNER, BUSINESS_OWNER, ... */
  type?: string;
}

export interface TagOwnership {
  owners: TagOwner[];
  /** DataHub's default when the aspect says nothing: time 0 by `urn:li:corpuser:unknown`. */
  lastModified: AuditStamp;
}

/**
 * A tag as stored: `id` is the key inside the URN, `name` the display name (`tagProperties.name`, or the id when the
 * tag has no properties). `created` is when its entity was created, `lastModified` its latest change.
 */
export interface Tag {
  urn: string;
  id: string;
  name: string;
  description: string | null;
  colorHex: string | null;
  /** The tag's `ownership` aspect, if it has one. */
  ownership: TagOwnership | null;
  created: AuditStamp;
  lastModified: AuditStamp;
}

export interface NewTag {
  /** The key inside the URN; a random UUID when absent. */
  id?: string | null;
  name: string;
  description?: string | null;
}

export interface TagChanges {
  name: string;
  /** `undefined` keeps the current description, `null` removes it. */
  description?: string | null;
  /** When given, the tag's owners are replaced by these (written with the name, all or none). */
  ownership?: OwnershipUpdate | null;
}

export interface TagSearch {
  /** Words matched as prefixes against name and description; `*` or blank lists every tag. */
  query?: string | null;
  start?: number | null;
  count?: number | null;
}

export interface MatchedField {
  name: 'name' | 'description';
  value: string;
}

export interface TagSearchHit {
  tag: Tag;
  /** The fields the query matched (none when listing everything). */
  matchedFields: MatchedField[];
}

export interface TagSearchPage {
  start: number;
  /** How many hits this page holds. */
  count: number;
  /** How many tags match in all. */
  total: number;
  hits: TagSearchHit[];
}
