/** Types of scripts/sizes.mjs, for test/sizes.test.ts. */
export interface Sizes {
  files: Record<string, number>;
  functions: Record<string, number>;
}
export const MAX_FILE_LINES: number;
export const MAX_FUNCTION_LINES: number;
export function measureSizes(): Sizes;
export function sizeProblems(measured: Sizes, frozen: Sizes): string[];
