/**
 * The service interface as data and pure functions. Imports nothing from the rest of the project.
 * The zod schemas are imported from `$lib/protocol/schemas` on their own, so a page that needs only the data
 * (supergroups, limits, error tables) does not ship zod to the browser.
 */
export * from './supergroups';
export * from './limits';
export * from './parameters';
export * from './countries';
export * from './errors';
export * from './errata';
export * from './choices';
export type * from './schemas';
export * from './outcomes';
export * from './endpoints';
