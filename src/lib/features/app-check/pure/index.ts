/** The one door into the app-check feature's pure half: what other features and components use of it. */
export * from './judge';
export * from './report';
export * from './stream';
