export type * from './parts.js';
