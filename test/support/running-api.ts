/** Calls /api of a sandbox on a real port (startSandbox) as the default client, with the API key: for test set-up. */
import type { RunningSandbox } from '../../src/index.js';

/** One envelope operation; answers its body, and throws with the answer when it is not a success. */
export async function apiCall(sandbox: RunningSandbox, resource: string, data: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${sandbox.url}/api/${resource}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': sandbox.apiKey! },
    body: JSON.stringify({ data: { clientKey: sandbox.clientKey, ...data } }),
  });
  const body = await res.json();
  if (res.status >= 300) throw new Error(`${resource} ${String(data.action)}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}
