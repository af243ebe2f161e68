import { Privilege } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import { badRequest, conflict, type Actor, type MutationResolvers } from '@mds/schema';
import { anyOf, type EntityService, type Grant } from '../service';
import { entityTypeOf, graphqlReader } from './mutation-support';

type Aspect = Record<string, unknown>;
type Stamp = { time: number; actor: string };

const LINKS = [Privilege.EDIT_ENTITY_DOC_LINKS];
const EMBED = [Privilege.EDIT_ENTITY_EMBED];
const PROPERTIES = [Privilege.EDIT_ENTITY_PROPERTIES];
const MANAGE_DOMAINS = anyOf(Privilege.MANAGE_DOMAINS);

/** Characters a URI may not hold (RFC 3986), as DataHub's `Url` refuses them. */
const NOT_A_URL = /[\s<>"{}|\\^`]/;

interface Link {
  url: string;
  description: string;
  createStamp?: Stamp;
  updateStamp?: Stamp;
}
const linksOf = (memory: Aspect | undefined): Link[] =>
  (Array.isArray(memory?.elements) ? memory.elements : []).filter(isJsonObject) as unknown as Link[];
const sameLink = (url: string, label: string) => (link: Link) => link.url === url && link.description === label;

/**
 * Edits of one aspect of an entity that DataHub's resolvers make by reading, changing and writing it back (entities-api
 * §10): links (`institutionalMemory`, DataHub's LinkUtils), `updateEmbed`, `updateDisplayProperties`, `updateName`.
 * Each is a read-modify-write through the service, so a concurrent edit of the same aspect is never lost.
 */
export function propertyMutationResolvers(
  service: EntityService,
  now: () => number,
  /** Whether another domain under `parent` (null: a root one) than `except` has `name`, whatever the case. */
  domainNameTaken: (name: string, parent: string | null, except: string) => Promise<boolean>,
  /** Whether a business attribute other than `except` has `name`. */
  businessAttributeNameTaken: (name: string, except: string) => Promise<boolean>,
): MutationResolvers {
  const stampOf = (actor: Actor): Stamp => ({ time: now(), actor: actor.urn });

  const authorizeOrGlossary = (actor: Actor, urn: string, privileges: readonly Privilege[]) =>
    service.authorizeEditOrGlossary(actor, [urn], privileges);

  /** The links of a resource after `change`, written back; DataHub's checks of the url and the resource first. */
  const editLinks = async (actor: Actor, resourceUrn: string, urls: readonly string[], change: (links: Link[], stamp: Stamp) => Link[]) => {
    const grant = await authorizeOrGlossary(actor, resourceUrn, LINKS);
    for (const url of urls)
      if (NOT_A_URL.test(url)) throw badRequest(`Failed to change institutional memory for resource ${resourceUrn}. Expected an url.`);
    if (!(await entityTypeOf(graphqlReader(service, actor), resourceUrn)))
      throw badRequest(`Failed to change institutional memory for resource ${resourceUrn}. Resource does not exist.`);
    const stamp = stampOf(actor);
    await service.update(grant, { urn: resourceUrn, aspect: 'institutionalMemory' }, (current) => ({
      ...current,
      elements: change(linksOf(current), stamp),
    }));
    return true;
  };

  /** A read-modify-write of `aspect` of `urn`; `absent` is the text when the aspect is not stored (a new one otherwise). */
  const updateAspect = async (grant: Grant, urn: string, aspect: string, change: (current: Aspect) => Aspect, absent?: string) => {
    await service.update(grant, { urn, aspect }, (current) => {
      if (!current && absent) throw badRequest(absent);
      return change(current ?? {});
    });
    return true;
  };

  /** `updateName` of a domain: its name unique among its siblings, whatever the case (as createDomain's). */
  const renameDomain = async (actor: Actor, urn: string, name: string) => {
    const grant = await service.authorize(actor, MANAGE_DOMAINS);
    const properties = (await graphqlReader(service, actor).latest([urn], ['domainProperties'])).get(urn)?.get('domainProperties')?.value;
    const parent = typeof properties?.parentDomain === 'string' ? properties.parentDomain : null;
    if (properties && (await domainNameTaken(name, parent, urn)))
      throw conflict(`"${name}" already exists in this domain. Please pick a unique name.`);
    return updateAspect(grant, urn, 'domainProperties', (current) => ({ ...current, name }), 'Domain does not exist');
  };

  return {
    addLink: async (_parent, { input }, { actor }) =>
      editLinks(actor, input.resourceUrn, [input.linkUrl], (links, stamp) =>
        links.some(sameLink(input.linkUrl, input.label))
          ? links
          : [...links, { url: input.linkUrl, description: input.label, createStamp: stamp }],
      ),
    updateLink: async (_parent, { input }, { actor }) =>
      editLinks(actor, input.resourceUrn, [input.currentUrl, input.linkUrl], (links, stamp) => {
        const missing = `Failed to update the link '${input.currentUrl}' with label '${input.currentLabel}'. The link does not exist`;
        const index = links.findIndex(sameLink(input.currentUrl, input.currentLabel));
        if (index < 0) throw badRequest(missing);
        const replaced = links[index]!;
        if (links.some((link, at) => at !== index && sameLink(input.linkUrl, input.label)(link)))
          throw badRequest(`The link '${input.linkUrl}' with label '${input.label}' already exists`);
        const updated: Link = {
          url: input.linkUrl,
          description: input.label,
          ...(replaced.createStamp ? { createStamp: replaced.createStamp } : {}),
          updateStamp: stamp,
        };
        return links.map((link, at) => (at === index ? updated : link));
      }),
    removeLink: async (_parent, { input }, { actor }) =>
      editLinks(actor, input.resourceUrn, [input.linkUrl], (links) =>
        links.filter((link) => (input.label == null ? link.url !== input.linkUrl : !sameLink(input.linkUrl, input.label)(link))),
      ),

    updateEmbed: async (_parent, { input }, { actor }) => {
      const grant = await service.authorizeEdit(actor, [input.urn], EMBED);
      if (!(await entityTypeOf(graphqlReader(service, actor), input.urn)))
        throw badRequest(`Failed to update embed for entity with urn ${input.urn}. Entity does not exist!`);
      // As DataHub: an absent renderUrl leaves the stored one as it is.
      return updateAspect(grant, input.urn, 'embed', (current) => ({
        ...current,
        ...(input.renderUrl == null ? {} : { renderUrl: input.renderUrl }),
      }));
    },

    updateDisplayProperties: async (_parent, { urn, input }, { actor }) => {
      if (!(await entityTypeOf(graphqlReader(service, actor), urn))) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
      const grant = await service.authorize(actor, MANAGE_DOMAINS);
      return updateAspect(grant, urn, 'displayProperties', (current) => {
        const icon = input.icon
          ? {
              ...(isJsonObject(current.icon) ? current.icon : {}),
              ...(input.icon.name == null ? {} : { name: input.icon.name }),
              ...(input.icon.style == null ? {} : { style: input.icon.style }),
              ...(input.icon.iconLibrary == null ? {} : { iconLibrary: input.icon.iconLibrary }),
            }
          : undefined;
        return { ...current, ...(input.colorHex == null ? {} : { colorHex: input.colorHex }), ...(icon ? { icon } : {}) };
      });
    },

    updateName: async (_parent, { input }, { actor }) => {
      const { urn, name } = input;
      const type = await entityTypeOf(graphqlReader(service, actor), urn);
      if (!type) throw badRequest(`Failed to update ${urn}. ${urn} does not exist.`);
      const rename = (current: Aspect) => ({ ...current, name });
      switch (type) {
        // Only who manages the glossary renames its terms and nodes (DataHub's canUpdateGlossaryEntity).
        case 'glossaryTerm':
          return updateAspect(
            await service.authorizeGlossaryEntity(actor, urn),
            urn,
            'glossaryTermInfo',
            rename,
            'Glossary Term does not exist',
          );
        case 'glossaryNode':
          return updateAspect(
            await service.authorizeGlossaryEntity(actor, urn),
            urn,
            'glossaryNodeInfo',
            rename,
            'Glossary Node does not exist',
          );
        case 'domain':
          return renameDomain(actor, urn, name);
        case 'businessAttribute': {
          // DataHub's updateBusinessAttributeName: MANAGE_BUSINESS_ATTRIBUTE, a unique name, written as name and fieldPath.
          const grant = await service.authorize(actor, anyOf(Privilege.MANAGE_BUSINESS_ATTRIBUTE));
          const info = (await graphqlReader(service, actor).latest([urn], ['businessAttributeInfo']))
            .get(urn)
            ?.get('businessAttributeInfo');
          if (info && (await businessAttributeNameTaken(name, urn)))
            throw conflict(`"${name}" already exists as Business Attribute. Please pick a unique name.`);
          return updateAspect(
            grant,
            urn,
            'businessAttributeInfo',
            (current) => ({ ...current, name, fieldPath: name }),
            'Business Attribute does not exist',
          );
        }
        case 'dataProduct':
          return updateAspect(
            await service.authorizeEdit(actor, [urn], []),
            urn,
            'dataProductProperties',
            rename,
            'Data Product does not exist',
          );
        case 'dataset': {
          // DataHub writes a new editableDatasetProperties holding only the name; mds keeps the edited description.
          const grant = await service.authorizeEdit(actor, [urn], PROPERTIES);
          return updateAspect(grant, urn, 'editableDatasetProperties', (current) => ({ ...current, name, lastModified: stampOf(actor) }));
        }
        default:
          throw badRequest(`Failed to update name. Unsupported resource type ${urn} provided.`);
      }
    },
  };
}
