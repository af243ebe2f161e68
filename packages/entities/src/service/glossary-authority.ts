import { Privilege } from '@mds/auth';
import { urnTypeOf } from '@mds/core';
import type { Actor } from '@mds/schema';
import type { AspectStore } from '../store/port';
import { anyOf, type Policy } from './policy';

/** The info aspect of each glossary entity type: its name, definition and parent node. */
export const GLOSSARY_INFO: Readonly<Record<string, string>> = { glossaryTerm: 'glossaryTermInfo', glossaryNode: 'glossaryNodeInfo' };

export const isGlossaryEntity = (urn: string): boolean => GLOSSARY_INFO[urnTypeOf(urn) ?? ''] !== undefined;

/**
 * Who manages the business glossary, as DataHub's GlossaryUtils decides it: MANAGE_GLOSSARIES (a platform privilege)
 * manages every term and node; otherwise what lies directly under a node is managed by who holds
 * MANAGE_GLOSSARY_CHILDREN on that node, or MANAGE_ALL_GLOSSARY_CHILDREN on it or on any node above it (a stored
 * policy on a node). A term or node is managed by who manages its parent's children; one at the root only by
 * MANAGE_GLOSSARIES. Parents are read from the store as policy facts are (the system's read, never the caller's view).
 */
export function glossaryAuthority(store: AspectStore, policy: Policy) {
  const holds = async (actor: Actor, privilege: Privilege, resource?: string) =>
    policy.authorize(actor, { privileges: anyOf(privilege), ...(resource === undefined ? {} : { resource }) });

  /** The parent node of a glossary term or node; undefined at the root, for anything else, or when not stored. */
  async function parentOf(urn: string): Promise<string | undefined> {
    const aspect = GLOSSARY_INFO[urnTypeOf(urn) ?? ''];
    if (!aspect) return undefined;
    const parent = (await store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value.parentNode;
    return typeof parent === 'string' ? parent : undefined;
  }

  /** Whether `actor` may create, move, edit and delete what lies directly under `node` (undefined: the root). */
  async function managesChildren(actor: Actor, node: string | undefined): Promise<boolean> {
    if (await holds(actor, Privilege.MANAGE_GLOSSARIES)) return true;
    if (node === undefined) return false;
    if (await holds(actor, Privilege.MANAGE_GLOSSARY_CHILDREN, node)) return true;
    const seen = new Set<string>();
    for (let current: string | undefined = node; current !== undefined && !seen.has(current); current = await parentOf(current)) {
      seen.add(current);
      if (await holds(actor, Privilege.MANAGE_ALL_GLOSSARY_CHILDREN, current)) return true;
    }
    return false;
  }

  /** Whether `actor` manages the glossary term or node `urn` (false for any other entity): DataHub's canUpdateGlossaryEntity. */
  async function managesEntity(actor: Actor, urn: string): Promise<boolean> {
    return isGlossaryEntity(urn) && managesChildren(actor, await parentOf(urn));
  }

  return { parentOf, managesChildren, managesEntity };
}
