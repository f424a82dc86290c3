/** The one door into the scenarios feature's server side: what other features use of it. */
export { readArgs } from './cli';
