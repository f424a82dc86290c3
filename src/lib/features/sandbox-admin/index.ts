/** The one door into the sandbox-admin feature's server side: what other features and components use of it. */
export * from './access';
