/** Types of scripts/podman.mjs, for the container test. */
export const ROOT: string;
export const BASE_IMAGE: string;
export const IMAGE: string;
export const PODMAN: string[];
export const LIMITS: string[];
export function unavailable(): string | undefined;
export function containerRunning(name: string): boolean;
export function podman(
  args: string[],
  options?: { allowFailure?: boolean },
): { status: number | null; stdout: string; stderr: string };
export function buildBase(): { cached: boolean };
export function buildImage(tag?: string): void;
export function ensureImage(tag?: string): void;
export function imageSize(tag?: string): number;
