/**
 * esign-sandbox/register: any Node program, unchanged, talks to a sandbox instead of the service.
 *
 *   ESIGN_SANDBOX_URL=http://127.0.0.1:4010 node --import esign-sandbox/register app.js
 *
 * Requests for the service's host (`api.sendforsign.com`, plus the names in ESIGN_SANDBOX_INTERCEPT_HOSTS) made with
 * fetch, http, https or undici go to ESIGN_SANDBOX_URL, same path and query; every other host is left alone
 * (docs/library.md, "Keep the production URL"). Without ESIGN_SANDBOX_URL the program does not start: it would
 * otherwise reach the real service while its team believes it is testing.
 */
import { interceptedHosts, sandboxTarget } from './intercept/hosts.js';
import { interceptHosts } from './intercept/interceptor.js';

const url = process.env.ESIGN_SANDBOX_URL;
if (!url)
  throw new Error(
    'esign-sandbox/register: set ESIGN_SANDBOX_URL to the sandbox to send api.sendforsign.com requests to ' +
      '(e.g. ESIGN_SANDBOX_URL=http://127.0.0.1:4010); without it they would reach the real service',
  );
const target = sandboxTarget(url, 'ESIGN_SANDBOX_URL');
interceptHosts(
  target,
  interceptedHosts(process.env.ESIGN_SANDBOX_INTERCEPT_HOSTS, target, 'ESIGN_SANDBOX_INTERCEPT_HOSTS'),
);
