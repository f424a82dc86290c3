/** The one door into the scenarios feature's pure half: what other features and components use of it. */
export * from './curl-examples';
export * from './report';
export * from './reproduce';
