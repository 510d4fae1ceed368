// The floor under a signed answer: bare-server.mjs plus what every 1.3 answer must do, one
// Ed25519 signature over timestamp ‖ body (node:crypto sign, as the sandbox). The body is the
// file argv[2] with a fresh random UUID written over its nonce each time (the same size), so
// no answer or signature could be reused. Prints its port on stdout once listening.
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';

const template = fs.readFileSync(process.argv[2]);
const nonceAt = Math.max(0, template.indexOf('"nonce":"') + '"nonce":"'.length);
const { privateKey } = generateKeyPairSync('ed25519');
const server = http.createServer((_req, res) => {
  const body = Buffer.from(template);
  body.write(randomUUID(), nonceAt, 'latin1');
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(null, Buffer.concat([Buffer.from(timestamp, 'ascii'), body]), privateKey).toString('hex');
  res.writeHead(200, { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-ed25519': signature, 'content-length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGINT', () => server.close(() => process.exit(0)));
