/** What the load benchmark's server child (bare `node:http` and the peer, oauth2-mock-server) tells the parent. */
export interface ServersReady {
	bareUrl: string;
	peerUrl: string;
	/** The installed oauth2-mock-server's version. */
	peerVersion: string;
}
