const { startSandbox } = await import('../dist/index.js');
const sandbox = await startSandbox({ clock: 'frozen', log: 'none' });
const api = { 'x-service-key': sandbox.apiKey, 'content-type': 'application/json' };
const html = '<table>' + '<tr><td>1</td><td>2</td></tr>'.repeat(50000) + '</table>';
const res = await fetch(`${sandbox.url}/api/contract`, {
  method: 'POST',
  headers: api,
  body: JSON.stringify({
    data: { action: 'create', clientKey: sandbox.clientKey, contract: { name: 'x', value: html } },
  }),
});
const key = (await res.json()).contract.contractKey;
let probes = 0,
  worst = 0,
  done = false;
const probe = (async () => {
  while (!done) {
    const t = performance.now();
    await fetch(`${sandbox.url}/__sandbox/health`);
    worst = Math.max(worst, performance.now() - t);
    probes++;
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const t = performance.now();
const d = await fetch(`${sandbox.url}/api/download_pdf?contractKey=${key}&clientKey=${sandbox.clientKey}`, {
  headers: api,
});
const b = await d.arrayBuffer();
done = true;
await probe;
console.log(
  d.status,
  b.byteLength,
  (performance.now() - t).toFixed(0),
  'ms; probes',
  probes,
  'worst probe',
  worst.toFixed(0),
);
await sandbox.close();
