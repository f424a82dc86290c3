/** The one door into the runs feature's server side: what other features and components use of it. */
export * from './access';
export * from './controller';
