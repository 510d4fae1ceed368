// The baseline of a networked command: one GET with node:http, body printed. argv[2] is the URL.
import http from 'node:http';

http.get(process.argv[2], (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(`${Buffer.concat(chunks).toString('utf8')}\n`));
});
