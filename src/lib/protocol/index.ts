/** The service interface as data and pure functions. Imports nothing from the rest of the project. */
export * from './supergroups';
export * from './limits';
export * from './countries';
export * from './errors';
export * from './errata';
export * from './choices';
export * from './schemas';
