'use strict';
/**
 * The benchmark's webhook endpoint, in its own process (so it does not share the service's event
 * loop): answers every POST with 200 at once and counts them. Started with fork(); prints
 * `LISTENING <port>` and answers `{count}` to any IPC message.
 */
const http = require('node:http');

let count = 0;
const server = http.createServer((request, response) => {
  request.on('data', () => undefined);
  request.on('end', () => {
    count++;
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '2' }).end('{}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${server.address().port}\n`);
});
process.on('message', () => process.send({ count }));
process.on('disconnect', () => process.exit(0));
