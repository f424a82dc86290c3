/** What the load benchmark's server child and the parent share. */
import { FIXTURE_CLIENTS } from '../src/lib/sandbox/fixtures';

export const BENCH_CLIENT = FIXTURE_CLIENTS[0]!;
/** The fixtures register `{explorerOrigin}/callback`. */
export const BENCH_REDIRECT_URI = 'http://localhost:3000/callback';

export interface ServersReady {
	bareUrl: string;
	accountsUrl: string;
	accessToken: string;
	codes: string[];
}
