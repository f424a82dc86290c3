/** The one door into the walk feature's server side: what other features and components use of it. */
export * from './explorer';
