// The ceiling: node:http answering one fixed JSON body (the file argv[2]) to every request.
// Prints its port on stdout once listening.
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.argv[2]);
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGINT', () => server.close(() => process.exit(0)));
