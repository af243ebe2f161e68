export type * from './generated/resolvers-types';
export type { Actor, ApiContext } from './context';
export * from './errors';
export * from './actions';
export { buildApiSchema, loadTypeDefs } from './sdl';
export type { ApiModule, JsonRoute } from './module';
