// The yardstick of a networked command: one GET with node:http, body printed. argv[2] is the URL.
// CommonJS, as bin/kactl.js and the bundle are: on Node 24 an ES module entry starts ~20 ms later
// than the same script as CommonJS, which would flatter every ratio measured against it
// (bare-request.mjs, the same script as an ES module, stays as an informational row).
'use strict';
const http = require('node:http');

http.get(process.argv[2], (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(`${Buffer.concat(chunks).toString('utf8')}\n`));
});
