// The ES module twin of bare-request.cjs (the yardstick): one GET with node:http, body printed.
// Kept as an informational row: an ES module entry starts later than CommonJS on Node 22+.
import http from 'node:http';

http.get(process.argv[2], (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(`${Buffer.concat(chunks).toString('utf8')}\n`));
});
