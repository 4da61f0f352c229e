/**
 * The request path as it came, before anything resolves it. Node's URL parser resolves `.` and `..` segments,
 * `%2e` spelt either case included, before a route is matched: `/__sandbox/platforms/%2e%2e/reset` would become
 * `/__sandbox/reset` and reset every tenant. No client the sandbox serves sends such a path (clients resolve dot
 * segments themselves), so one that holds any is refused, whatever route it would reach (docs/errors.md).
 */

/** Why the raw request target `target` is refused (a sentence), or undefined when its path has no dot segment. */
export function requestPathProblem(target: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/[?#].*$/s, '');
  for (const segment of path.split(/[/\\]/))
    if (/^(\.|%2e){1,2}$/i.test(segment))
      return 'The path has a . or .. segment (%2e is a dot too); paths are never resolved here: send the path itself';
  return undefined;
}
