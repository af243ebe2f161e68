export { createOpenApi } from './module';
