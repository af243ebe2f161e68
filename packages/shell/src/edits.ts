import { Privilege } from '@mds/auth';
import { isJsonObject, parseEntityUrn, UrnError } from '@mds/core';
import { anyOf, ItemWriteError, type Edit, type EntityService, type Grant, type PrivilegeGroups } from '@mds/entities';
import { badRequest, forbidden, type Actor } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { GLOBAL_SETTINGS_URN, STEP_STATE_URN_PREFIX } from './service';

/** No privilege asked: any signed-in caller (DataHub lets every user keep personal views and onboarding steps). */
const ANY_CALLER: PrivilegeGroups = [[]];
const GLOBAL_VIEWS = anyOf(Privilege.MANAGE_GLOBAL_VIEWS);
const CREATE_POSTS = anyOf(Privilege.CREATE_GLOBAL_ANNOUNCEMENTS, Privilege.MANAGE_GLOBAL_ANNOUNCEMENTS);
const DELETE_POSTS = anyOf(Privilege.MANAGE_GLOBAL_ANNOUNCEMENTS);
const FEATURES = anyOf(Privilege.MANAGE_FEATURES);

const VIEW_PREFIX = 'urn:li:dataHubView:';
const POST_PREFIX = 'urn:li:post:';

/** A view's filter as the UI sends it (DataHubViewDefinitionInput). */
export interface ViewDefinitionInput {
  entityTypes: readonly string[];
  filter: {
    operator: 'AND' | 'OR';
    filters: readonly {
      field: string;
      values?: readonly string[] | null;
      value?: string | null;
      condition?: string | null;
      negated?: boolean | null;
    }[];
  };
}

export interface PostContentInput {
  contentType: string;
  title: string;
  description?: string | null;
  link?: string | null;
  media?: { type: string; location: string } | null;
}

/** Which part of `globalSettingsInfo` a settings mutation changes. */
export type GlobalSettingsChange =
  | { views: { defaultView: string | null } }
  | { docPropagation: { columnPropagationEnabled: boolean } }
  | { applications: { enabled: boolean } };

/**
 * The edits of the app shell's own entities (views, posts, step states, global settings), as DataHub's resolvers make
 * them (CreateViewResolver, CreatePostResolver, BatchUpdateStepStatesResolver, Update*SettingsResolver …): the same
 * aspects, the same privileges, each written through the entity service, which validates it.
 */
export class ShellEdits {
  constructor(
    private readonly service: EntityService,
    /** A registry name of a GraphQL EntityType (DATASET → dataset). */
    private readonly registryName: (graphqlType: string) => string,
  ) {}

  /** One write; a value the model refuses is the caller's 400 (the service's error, not the batch's wrapper). */
  private async write(grant: Grant, edit: Omit<Edit, 'changeType'>, stamp: { actor: string; time: number }): Promise<void> {
    try {
      await this.service.write(grant, [{ ...edit, changeType: 'UPSERT' }], stamp);
    } catch (error) {
      throw error instanceof ItemWriteError ? error.error : error;
    }
  }

  private async stored(actor: Actor, urn: string, aspect: string) {
    return (await this.service.reader(actor, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  }

  /** DataHub's ViewUtils.mapDefinition: AND is one group of every criterion, OR one group per criterion. */
  private definition(input: ViewDefinitionInput) {
    const criteria = input.filter.filters.map((f) => ({
      field: f.field,
      condition: f.condition ?? 'EQUAL',
      negated: f.negated ?? false,
      values: [...(f.values ?? (f.value != null ? [f.value] : []))],
      // The deprecated single value, still required by the model: DataHub writes it empty.
      value: '',
    }));
    const or = input.filter.operator === 'AND' ? [{ and: criteria }] : criteria.map((c) => ({ and: [c] }));
    return { entityTypes: input.entityTypes.map(this.registryName), filter: { or } };
  }

  /** `createView`: a PERSONAL view by anyone, a GLOBAL one with MANAGE_GLOBAL_VIEWS; the new urn. */
  async createView(
    actor: Actor,
    input: { viewType: 'GLOBAL' | 'PERSONAL'; name: string; description?: string | null; definition: ViewDefinitionInput },
  ): Promise<string> {
    const urn = VIEW_PREFIX + randomUUID();
    const grant = await this.service.authorize(actor, input.viewType === 'GLOBAL' ? GLOBAL_VIEWS : ANY_CALLER, [urn]);
    const stamp = { actor: actor.urn, time: Date.now() };
    const value = {
      type: input.viewType,
      name: input.name,
      ...(input.description == null ? {} : { description: input.description }),
      definition: this.definition(input.definition),
      created: stamp,
      lastModified: stamp,
    };
    await this.write(grant, { urn, aspect: 'dataHubViewInfo', value }, stamp);
    return urn;
  }

  /**
   * DataHub's ViewUtils.canUpdateView: a GLOBAL view with MANAGE_GLOBAL_VIEWS, any view by the one who created it;
   * a view that is not stored is a 400.
   */
  private async viewGrant(actor: Actor, urn: string): Promise<Grant> {
    const info = await this.stored(actor, urn, 'dataHubViewInfo');
    if (!info) throw badRequest(`Failed to modify View. View with urn ${urn} does not exist.`);
    if (info.type === 'GLOBAL' && (await this.service.allows(actor, GLOBAL_VIEWS)))
      return this.service.authorize(actor, GLOBAL_VIEWS, [urn]);
    const creator = isJsonObject(info.created) ? info.created.actor : undefined;
    if (creator !== actor.urn) throw forbidden();
    return this.service.authorize(actor, ANY_CALLER, [urn]);
  }

  /** `updateView`: the name, description and definition given replace the stored ones; lastModified is the caller. */
  async updateView(
    actor: Actor,
    urn: string,
    input: { name?: string | null; description?: string | null; definition?: ViewDefinitionInput | null },
  ): Promise<void> {
    const grant = await this.viewGrant(actor, urn);
    const stamp = { actor: actor.urn, time: Date.now() };
    await this.service.update(
      grant,
      { urn, aspect: 'dataHubViewInfo' },
      (current) => ({
        ...current,
        ...(input.name == null ? {} : { name: input.name }),
        ...(input.description == null ? {} : { description: input.description }),
        ...(input.definition == null ? {} : { definition: this.definition(input.definition) }),
        lastModified: stamp,
      }),
      stamp,
    );
  }

  /** `deleteView`: the view goes, and so does every default-view setting that names it (DataHub's reference clean-up). */
  async deleteView(actor: Actor, urn: string): Promise<void> {
    const grant = await this.viewGrant(actor, urn);
    const reader = this.service.reader(actor, { api: 'graphql' });
    for (const ref of await reader.referencesTo(urn, 'viewedWith')) {
      // The clean-up follows from the delete the caller was allowed (DataHub's runs as the system).
      const cleanup = await this.service.authorize(actor, ANY_CALLER, [ref.urn]);
      await this.service.update(cleanup, ref, (current) => {
        const views = isJsonObject(current?.views) ? { ...current.views } : {};
        if (views.defaultView === urn) delete views.defaultView;
        return { ...current, views };
      });
    }
    await this.service.deleteEntity(grant, urn);
  }

  /** `createPost` (CREATE_ or MANAGE_GLOBAL_ANNOUNCEMENTS): a post about the home page or an entity (or one of its fields). */
  async createPost(
    actor: Actor,
    input: { postType: string; content: PostContentInput; resourceUrn?: string | null; subResource?: string | null },
  ): Promise<void> {
    const urn = POST_PREFIX + randomUUID();
    const grant = await this.service.authorize(
      actor,
      CREATE_POSTS,
      [urn],
      'Unauthorized to create posts. Please contact your DataHub administrator if this needs corrective action.',
    );
    let target = input.resourceUrn ?? undefined;
    if (target) {
      try {
        parseEntityUrn(target);
      } catch (error) {
        if (error instanceof UrnError) throw badRequest(`Field 'resourceUrn': invalid urn ${target}.`);
        throw error;
      }
      if (input.subResource) target = `urn:li:schemaField:(${target},${input.subResource})`;
    }
    const now = Date.now();
    const value = {
      type: input.postType,
      content: postContent(input.content),
      created: now,
      lastModified: now,
      auditStamp: { actor: actor.urn, time: now },
      ...(target ? { target } : {}),
    };
    await this.write(grant, { urn, aspect: 'postInfo', value }, { actor: actor.urn, time: now });
  }

  /** `updatePost`: the content and type replaced, lastModified now. */
  async updatePost(actor: Actor, input: { urn: string; postType: string; content: PostContentInput }): Promise<void> {
    const grant = await this.service.authorize(
      actor,
      CREATE_POSTS,
      [input.urn],
      'Unauthorized to update posts. Please contact your DataHub administrator if this needs corrective action.',
    );
    const absent = () => badRequest(`Failed to edit/update post for urn ${input.urn} as post doesn't exist`);
    if (!(await this.stored(actor, input.urn, 'postInfo'))) throw absent();
    await this.service.update(grant, { urn: input.urn, aspect: 'postInfo' }, (current) => {
      if (!current) throw absent();
      return { ...current, type: input.postType, content: postContent(input.content), lastModified: Date.now() };
    });
  }

  /** `deletePost` (MANAGE_GLOBAL_ANNOUNCEMENTS): the post entity removed. */
  async deletePost(actor: Actor, urn: string): Promise<void> {
    const grant = await this.service.authorize(
      actor,
      DELETE_POSTS,
      [urn],
      'Unauthorized to delete posts. Please contact your DataHub administrator if this needs corrective action.',
    );
    if (!(await this.service.reader(actor, { api: 'graphql' }).exists(urn))) throw badRequest(`Post ${urn} does not exist.`);
    await this.service.deleteEntity(grant, urn);
  }

  /**
   * `batchUpdateStepStates`: each state's properties replace the stored ones, stamped by the caller. As DataHub, a
   * state that cannot be written answers `succeeded: false` and the others are still written.
   */
  async updateStepStates(
    actor: Actor,
    states: readonly { id: string; properties: readonly ({ key: string; value?: string | null } | null | undefined)[] }[],
  ): Promise<{ id: string; succeeded: boolean }[]> {
    const results: { id: string; succeeded: boolean }[] = [];
    for (const state of states) {
      const urn = STEP_STATE_URN_PREFIX + state.id;
      const stamp = { actor: actor.urn, time: Date.now() };
      const properties = Object.fromEntries(state.properties.flatMap((p) => (p ? [[p.key, p.value ?? '']] : [])));
      try {
        const grant = await this.service.authorize(actor, ANY_CALLER, [urn]);
        const value = { properties, lastModified: stamp };
        await this.write(grant, { urn, aspect: 'dataHubStepStateProperties', value }, stamp);
        results.push({ id: state.id, succeeded: true });
      } catch {
        results.push({ id: state.id, succeeded: false });
      }
    }
    return results;
  }

  /**
   * The global settings mutations: a read-modify-write of `globalSettingsInfo` that changes one part. The default view
   * needs MANAGE_GLOBAL_VIEWS, the feature switches MANAGE_FEATURES (DataHub's canManageFeatures).
   */
  async updateGlobalSettings(actor: Actor, change: GlobalSettingsChange): Promise<void> {
    const grant = await this.service.authorize(actor, 'views' in change ? GLOBAL_VIEWS : FEATURES, [GLOBAL_SETTINGS_URN]);
    if ('views' in change && change.views.defaultView) {
      const view = await this.stored(actor, change.views.defaultView, 'dataHubViewInfo');
      if (!view) throw badRequest(`Failed to update global view settings: view ${change.views.defaultView} does not exist.`);
    }
    await this.service.update(grant, { urn: GLOBAL_SETTINGS_URN, aspect: 'globalSettingsInfo' }, (current) => {
      const settings = { ...current };
      const part = (name: string) => (isJsonObject(settings[name]) ? { ...settings[name] } : undefined);
      if ('views' in change) {
        const views = part('views') ?? {};
        if (change.views.defaultView) views.defaultView = change.views.defaultView;
        else delete views.defaultView;
        settings.views = views;
      } else if ('docPropagation' in change) {
        // DataHub starts a missing part from enabled: true.
        settings.docPropagation = {
          ...(part('docPropagation') ?? { enabled: true }),
          columnPropagationEnabled: change.docPropagation.columnPropagationEnabled,
        };
      } else {
        settings.applications = { ...(part('applications') ?? {}), enabled: change.applications.enabled };
      }
      return settings;
    });
  }
}

/** DataHub's PostService.mapPostContent: description, link and media only when given. */
function postContent(content: PostContentInput) {
  return {
    type: content.contentType,
    title: content.title,
    ...(content.description == null ? {} : { description: content.description }),
    ...(content.link == null ? {} : { link: content.link }),
    ...(content.media == null ? {} : { media: { type: content.media.type, location: content.media.location } }),
  };
}
