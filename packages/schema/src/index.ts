export type * from './generated/resolvers-types';
export type { Actor, ApiContext } from './context';
export type { BrowsePathFolder, EntityParent } from './mappers';
export * from './errors';
export * from './actions';
export { BASE_TYPE_DEFS, buildApiSchema, resolversIfDeclared, sdlFiles } from './sdl';
export type { ApiModule, Domain, JsonRoute, ModuleGauge } from './module';
