// The aspect shapes of @mds/core, which its entry does not export yet (one export line in packages/core/src/index.ts,
// left to its owners): read from its source here, in this one place, until it does.
export { ASPECT_SHAPES, type Shape } from '../../core/src/aspect-schemas';
