/**
 * Routes the journal leaves out, declared by each routes module beside the routes it mounts (http/pages/,
 * http/control-api/, openapi/routes.ts); the wiring collects the declarations into the journal middleware's options.
 */

/** What one routes module keeps out of the journal. Paths are full request paths, as the journal sees them. */
export interface NotJournaled {
  /** Requests to these exact paths are not journaled. */
  readonly paths?: readonly string[];
  /** Requests to paths starting with one of these prefixes are not journaled. */
  readonly under?: readonly string[];
  /** Requests to these exact paths are journaled without their bodies. */
  readonly bodies?: readonly string[];
}

/** The journal middleware's `skip` and `skipBodies`, from every module's declaration. */
export function journalSkips(declared: readonly NotJournaled[]): {
  skip: (path: string) => boolean;
  skipBodies: (path: string) => boolean;
} {
  const paths = new Set(declared.flatMap((d) => d.paths ?? []));
  const under = declared.flatMap((d) => d.under ?? []);
  const bodies = new Set(declared.flatMap((d) => d.bodies ?? []));
  return {
    skip: (path) => paths.has(path) || under.some((prefix) => path.startsWith(prefix)),
    skipBodies: (path) => bodies.has(path),
  };
}
