/**
 * Helpers of the verify tests: run `verify` in process against a target, and targets that misbehave in known
 * ways (a stand-in that alters a sandbox's answers, one that answers HTML, a port nobody listens on).
 */
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import { type RunningSandbox, startSandbox } from '../../src/index.js';
import { runVerify } from '../../src/verify/command.js';

export interface VerifyRun {
  code: number;
  out: string;
  err: string;
}

/** `esign-sandbox verify <args>` in process, its sandbox from startSandbox, as the CLI wires it. */
export async function verify(args: string[], env: NodeJS.ProcessEnv = {}): Promise<VerifyRun> {
  let out = '';
  let err = '';
  const code = await runVerify(args, env, {
    startLocal: () => startSandbox(),
    out: (text) => (out += `${text}\n`),
    err: (text) => (err += `${text}\n`),
  });
  return { code, out, err };
}

/** The credentials flags for a sandbox used as the target. */
export const targetArgs = (target: { url: string; apiKey?: string; secret?: string }, secret = target.secret) => [
  '--target',
  target.url,
  '--api-key',
  target.apiKey!,
  '--secret',
  secret!,
];

export function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** How the stand-in changes one answer: the JSON body in place, and the status it answers instead (a number). */
export type Alteration = (body: any) => unknown;

export interface StandIn {
  url: string;
  apiKey: string;
  secret: string;
  close(): Promise<void>;
}

/**
 * A target that forwards every request to a second sandbox and alters the answers named in `alterations`, keyed
 * `"<path> <data.action>"` (e.g. `"/api/contract read"`).
 */
export async function standIn(second: RunningSandbox, alterations: Record<string, Alteration>): Promise<StandIn> {
  const server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization', 'x-sendforsign-key'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
    const upstream = await fetch(second.url + req.url, {
      method: req.method!,
      headers,
      ...(text ? { body: text } : {}),
    });
    let answer = await upstream.text();
    let status = upstream.status;
    let action: unknown;
    try {
      action = JSON.parse(text).data?.action;
    } catch {}
    const alter = alterations[`${req.url} ${action}`];
    if (alter) {
      const json = JSON.parse(answer);
      const instead = alter(json);
      if (typeof instead === 'number') status = instead;
      answer = JSON.stringify(json);
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(answer);
  });
  const url = await listen(server);
  return {
    url,
    apiKey: second.apiKey!,
    secret: second.secret!,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A web server that answers every request with an HTML page, as a wrong --target would. */
export async function htmlSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Welcome</title><h1>Our product</h1>');
  });
  const url = await listen(server);
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** An address nobody listens on: a port the system gave and took back. */
export async function deadAddress(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}
