export { createOpenApi } from './module';
export { buildApiDocument } from './api-docs';
