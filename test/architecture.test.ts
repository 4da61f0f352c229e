import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { architectureProblems, importGraph } from '../scripts/check-architecture.mjs';

describe('the layering of src/ (docs/architecture.md)', () => {
  it('has no import cycle and no import that goes up or sideways', () => {
    expect(architectureProblems()).toEqual([]);
  });

  it('would report an import that goes up, and a cycle', () => {
    const graph: Map<string, Set<string>> = importGraph();
    const [domainFile] = [...graph.keys()].filter((f) => f.includes('/src/domain/'));
    const [httpFile] = [...graph.keys()].filter((f) => f.includes('/src/http/'));
    graph.set(domainFile!, new Set([...graph.get(domainFile!)!, httpFile!]));
    graph.set(httpFile!, new Set([...graph.get(httpFile!)!, domainFile!]));
    const problems: string[] = architectureProblems(graph);
    expect(problems.some((p) => p.includes('http/ is a higher layer than domain/'))).toBe(true);
    expect(problems.some((p) => p.startsWith('import cycle:'))).toBe(true);
  });
});
