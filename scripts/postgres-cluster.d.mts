/** Types of scripts/postgres-cluster.mjs, for the test set-up. */
export function postgresBinaries(): string | undefined;
export function startCluster(bin: string, options?: { fsync?: boolean }): Promise<{ url: string; stop(): void }>;
