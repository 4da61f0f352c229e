/**
 * Debian's python3 with python3-pytest, as .ci/run installs them: the interpreter the Python recipe's tests run
 * (test/python, test/container). PYTHON overrides it; /usr/bin/python3 is preferred to another python3 on PATH
 * (a pyenv shim, a virtualenv) that may lack pytest.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/** Why the Python recipe cannot run here, or undefined when it can. */
export function pythonUnavailable(): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import pytest'], { encoding: 'utf8' });
  if (probe.error) return `${PYTHON} is not installed (apt-get install python3 python3-pytest)`;
  if (probe.status !== 0) return `pytest is not installed for ${PYTHON} (apt-get install python3-pytest)`;
  return undefined;
}
