/**
 * A program that keeps the service's production URL, as a team's code or SDK does: it calls
 * https://api.sendforsign.com with fetch, https.request, axios (the way an SDK sets a fixed `baseURL`) and undici's
 * `request` (the way the vendor's MCP server calls, docs/compatibility.md "The MCP server"), and another host with
 * fetch and http.get. Run by test/intercept/register.test.ts with `node --import esign-sandbox/register`; prints one
 * JSON line per call: {call, status, body}.
 */
import http from 'node:http';
import https from 'node:https';
import axios from 'axios';
import { request } from 'undici';

const { SFS_API_KEY: apiKey, SFS_CLIENT_KEY: clientKey, OTHER_URL: other, EXTRA_HOST: extra } = process.env;
const headers = { 'X-Sendforsign-Key': apiKey, 'Content-Type': 'application/json' };
const show = (call, status, body) => console.log(JSON.stringify({ call, status, body }));

const byFetch = await fetch('https://api.sendforsign.com/api/client', {
  method: 'POST',
  headers,
  body: JSON.stringify({ data: { action: 'list' } }),
});
show('fetch', byFetch.status, await byFetch.json());

const created = await new Promise((resolve, reject) => {
  const body = JSON.stringify({
    data: { action: 'create', clientKey, contract: { name: 'By https', value: '<p>Hi</p>' } },
  });
  const req = https.request('https://api.sendforsign.com/api/contract', { method: 'POST', headers }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => (text += chunk));
    res.on('end', () => resolve([res.statusCode, JSON.parse(text)]));
  });
  req.on('error', reject);
  req.end(body);
});
show('https.request', ...created);

const sdk = axios.create({ baseURL: 'https://api.sendforsign.com/api/', headers: { 'X-Sendforsign-Key': apiKey } });
const byAxios = await sdk.post('template', { data: { clientKey, action: 'list' } });
show('axios', byAxios.status, byAxios.data);

// The vendor's MCP server's sfsApiCall, as its source has it.
const byUndici = await request('https://api.sendforsign.com/api/contract', {
  method: 'POST',
  headers,
  body: JSON.stringify({ data: { action: 'create', clientKey, contract: { name: 'By undici', value: '<p>Hi</p>' } } }),
});
show('undici.request', byUndici.statusCode, await byUndici.body.json());

if (extra) {
  const byExtra = await fetch(`https://${extra}/__sandbox/health`);
  show('extra host', byExtra.status, await byExtra.json());
}

const elsewhere = await fetch(`${other}/by-fetch`);
show('other host by fetch', elsewhere.status, await elsewhere.text());
const viaHttp = await new Promise((resolve, reject) =>
  http
    .get(`${other}/by-http`, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve([res.statusCode, text]));
    })
    .on('error', reject),
);
show('other host by http', ...viaHttp);
