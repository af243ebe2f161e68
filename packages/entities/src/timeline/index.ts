export { timeline, type TimelineSource } from './timeline';
export { CHANGE_CATEGORIES, type ChangeCategory, type ChangeEvent, type ChangeTransaction, type SemanticChange } from './events';
