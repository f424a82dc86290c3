import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox } from '../src/lib/sandbox';
import { createAccountsHost } from '../src/lib/sandbox/accounts/host';
import { loggedServer } from '../src/lib/sandbox/log';
import { refuseForeignHosts, ownHostNames, slowClientOptions, DEFAULT_SLOW_CLIENT_LIMITS } from '../src/lib/http/listener-guards';
import { FIXTURE_CLIENTS } from '../src/lib/sandbox/fixtures';

const FIXED = JSON.stringify({ sbid_number: 'STU0001', verifications: [{ supergroup: 'student', expires_on: '2027-01-01' }] });
const bareHandler = (req: IncomingMessage, res: ServerResponse) => {
	req.resume();
	res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(FIXED) });
	res.end(FIXED);
};
const listen = (s: ReturnType<typeof createServer>) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

const origin = 'http://localhost:4999';
const sb = await startSandbox({ authPort: 0, accountsPort: 0, explorerOrigin: origin, databasePath: process.env.DB!, controlApi: true });
const store = sb.store;
const user = store.getUserByLogin('student@example.com')!;
const client = FIXTURE_CLIENTS[0]!;
const code = store.issueCode({ clientId: client.client_id, userId: user.id, redirectUri: `${origin}/callback` });
const ex = store.exchangeCode(code, client.client_id, `${origin}/callback`);
if (!ex.ok) throw new Error('x');
const names = ownHostNames(origin, []);
const host = createAccountsHost(store, { controlApi: true, explorerOrigin: origin });
const nolog = createServer(slowClientOptions(DEFAULT_SLOW_CLIENT_LIMITS), refuseForeignHosts(names, host));
const rawHost = createServer(host);
const trivialLogged = loggedServer(store, 'accounts', bareHandler, { logUnclaimed: true, server: slowClientOptions(DEFAULT_SLOW_CLIENT_LIMITS) });
const bareHere = createServer(bareHandler);
const rawSlow = createServer(slowClientOptions(DEFAULT_SLOW_CLIENT_LIMITS), host);
const rawRefuse = createServer(refuseForeignHosts(names, host));
const bareSlow = createServer(slowClientOptions(DEFAULT_SLOW_CLIENT_LIMITS), bareHandler);
const ports = { full: Number(new URL(sb.accountsUrl).port), nolog: await listen(nolog), rawHost: await listen(rawHost), trivialLogged: await listen(trivialLogged), bareHere: await listen(bareHere), rawSlow: await listen(rawSlow), rawRefuse: await listen(rawRefuse), bareSlow: await listen(bareSlow) };
process.send!({ ports, token: ex.tokens.access_token });
process.on('disconnect', () => process.exit(0));
