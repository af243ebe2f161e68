export {
  ItemWriteError,
  createAspectStore,
  type AspectStore,
  type AspectWrite,
  type Audit,
  type ChangeType,
  type StoredAspect,
  type SystemMetadata,
  type WriteResult,
} from './aspect-store';
export { canonicalJson } from './canonical-json';
