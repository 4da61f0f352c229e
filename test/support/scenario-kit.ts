/**
 * What a scenario test does through the control API, on the sandbox of the test (`sandboxEachTest()` or one it made):
 * load a scenario (it must load), move the clock (it must move), find what the store holds, act as a recipient.
 */
import { ScenarioError, formatProblem, parseScenario } from '../../src/scenarios/load.js';
import type { TestSandbox } from './helpers.js';

/** The problems a scenario text (read as my.yaml) is refused with, one a line as they are printed; it must be refused. */
export async function messageOf(text: string): Promise<string> {
  try {
    await parseScenario(text, 'my.yaml');
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems.map(formatProblem).join('\n');
    throw error;
  }
  throw new Error('expected the scenario to be invalid');
}

/**
 * The `data:` section of a scenario: the demo client's contract "Lease", sent at load to two signers in turn, Ann
 * (ann@example.com, position 1) then Bob (bob@example.com, position 2).
 */
export const LEASE_FOR_ANN_THEN_BOB = `
data:
  clients:
    - clientKey: demoClient
      contracts:
        - name: Lease
          value: <p>Terms</p>
          send: true
          recipients:
            - { fullname: Ann, email: ann@example.com, action: sign, position: 1 }
            - { fullname: Bob, email: bob@example.com, action: sign, position: 2 }
`;

export function scenarioSteps(sandbox: () => TestSandbox) {
  const recipient = (email: string) => {
    const found = sandbox()
      .sandbox.services.store.recipients.all()
      .find((r) => r.email === email);
    if (!found) throw new Error(`no recipient with email ${email}`);
    return found;
  };
  return {
    /** Loads a scenario from YAML; answers the control API's summary of it. */
    async load(yaml: string): Promise<any> {
      const res = await sandbox().control('/scenarios', { yaml });
      if (res.status !== 201) throw new Error(`load: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async advance(by: string): Promise<void> {
      const res = await sandbox().control('/clock/advance', { by });
      if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
    },
    /** The stored contract of that name, if any. */
    contractNamed: (name: string) =>
      sandbox()
        .sandbox.services.store.contracts.all()
        .find((c) => c.name === name),
    recipient,
    /** The recipient with that email acts (view, sign, approve, act…) through the control API; it must be able to. */
    async act(email: string, verb: string): Promise<void> {
      const res = await sandbox().control(`/recipients/${recipient(email).recipientKey}/${verb}`, {});
      if (res.status !== 200) throw new Error(`${verb}: ${res.status} ${JSON.stringify(res.body)}`);
    },
  };
}
