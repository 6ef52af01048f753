// The CPU time (user + kernel, from /proc/PID/stat) one kit server spends per request, for one
// request shape sent one at a time over a keep-alive connection. Unlike callgrind's counts this
// includes the kernel's share (socket writes), which is where the cost of how a response is
// written shows; unlike wrk it does not need a quiet machine to show a 2x difference, though
// its figures move with the load (run the servers to compare alternately, several rounds).
//
//   node --import tsx bench/kit/server-cpu.ts <server.mjs> <port> [requests=2000] [path]
//     (path default: a page of 100 users from the 101st; the server is seeded with 500 users
//     through POST first; run `npm run build` first: kit servers import the built package)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [, , file, port, requests, path] = process.argv;
if (file === undefined || port === undefined) {
  throw new Error('usage: server-cpu.ts <server.mjs> <port> [requests] [path]');
}
const N = Number(requests ?? 2000);
const PAGE = '/api/v1/scim/v2/Users?startIndex=101&count=100';
const AUTH = 'Bearer bench-token';

const child = spawn('node', [file], {
  env: { ...process.env, PORT: port },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve) =>
  child.stdout.on('data', (data: Buffer) => String(data).includes('listening') && resolve()),
);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(method: string, target: string, body?: string): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: AUTH };
    if (body !== undefined) {
      headers['content-type'] = 'application/scim+json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const request = http.request(
      { host: '127.0.0.1', port, path: target, method, agent, headers },
      (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve([response.statusCode ?? 0, bytes]));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The server's CPU time so far, in ms (clock ticks of 10 ms). */
function cpuMs(): number {
  const fields = (readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

for (let i = 0; i < 500; i++) {
  const user = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: `u${i}@example.com`,
    active: true,
    name: { givenName: `G${i}`, familyName: `F${i}` },
    emails: [{ value: `u${i}@example.com`, type: 'work', primary: true }],
  };
  await send('POST', '/api/v1/scim/v2/Users', JSON.stringify(user));
}
const target = path ?? PAGE;
for (let i = 0; i < 300; i++) await send('GET', target);
const before = cpuMs();
let last: [number, number] = [0, 0];
for (let i = 0; i < N; i++) last = await send('GET', target);
const spent = cpuMs() - before;
console.log(
  `${file}: status ${last[0]}, ${last[1]} bytes, CPU ${((spent * 1000) / N).toFixed(1)} µs/request`,
);
child.kill();
await new Promise<void>((resolve) => child.on('exit', () => resolve()));
process.exit(0);
