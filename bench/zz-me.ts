import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './child';
import type { ServersReady } from './load-protocol';
import { readFileSync } from 'node:fs';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };

const D = Number(process.env.D ?? 5);
const R = Number(process.env.R ?? 3);
const servers = await startChild<ServersReady>('./servers.ts');
const dir = mkdtempSync(join(tmpdir(), 'zz-'));
process.env.DB = join(dir, 'sb.db');
const ours = await startChild<{ ports: Record<string, number>; token: string }>('./zz-child.ts', [], process.env.CHILD_FLAGS ? process.env.CHILD_FLAGS.split(' ') : []);
const headers = { authorization: `Bearer ${ours.message.token}`, 'user-agent': 'autocannon' };
const urls: Record<string, string> = { bare: servers.message.bareUrl, peer: `${servers.message.peerUrl}/userinfo` };
for (const [k, p] of Object.entries(ours.message.ports)) urls[k] = `http://127.0.0.1:${p}/api/v3/me.json`;
if (process.env.SHOW) { for (const [n, u] of Object.entries(urls)) { const r = await fetch(u, { headers }); console.log(n, r.status, [...r.headers].map(([k, v]) => `${k}: ${v}`).join(' | '), (await r.text()).length); } }
const only = process.env.ONLY?.split(',');
const names = Object.keys(urls).filter((n) => !only || only.includes(n));
const pidOf = (n: string) => (n === 'bare' || n === 'peer' ? servers.process.pid! : ours.process.pid!);
const us: Record<string, number[]> = {};
const run = (url: string, s: number, n?: string) => { const c0 = n ? cpu(pidOf(n)) : 0; return new Promise<number>((res, rej) => autocannon({ url, connections: 50, pipelining: 1, duration: s, headers }, (e, r) => { if (e) return rej(e); if (n) (us[n] ??= []).push(((cpu(pidOf(n)) - c0) * 1000) / r.requests.total); res(r.requests.average); })); };
for (const n of names) await run(urls[n]!, 2);
const got: Record<string, number[]> = {};
for (let i = 0; i < R; i++) for (const n of names) { (got[n] ??= []).push(await run(urls[n]!, D, n)); }
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const bare = med((got.bare ?? got[names[0]!])!);
for (const n of names) console.log(n.padEnd(14), med(got[n]!).toFixed(0).padStart(7), `${((med(got[n]!) / bare) * 100).toFixed(0)}%`, got[n]!.map((x) => x.toFixed(0)).join(' '), ' cpu µs/req', med(us[n]!).toFixed(1), us[n]!.map((x) => x.toFixed(0)).join(' '));
await servers.stop(); await ours.stop();
