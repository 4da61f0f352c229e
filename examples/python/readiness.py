"""The readiness report as a CI step of a Python job (docs/ci.md), with nothing but Python: the twin of
``esign-sandbox report`` for a job whose sandbox runs as a service container, with no Node beside the tests.

    python3 readiness.py --url http://127.0.0.1:4010 --junit reports/readiness.xml --markdown "$GITHUB_STEP_SUMMARY"

Prints the report with its evidence, writes the JUnit XML and Markdown forms the sandbox makes, and exits 0, 1 when
a finding is at or above --fail-on (error by default), or 2 when there is no report (one line on stderr says why).
"""

import argparse
import os
import sys

from esign_sandbox import Sandbox, SandboxError, report_text


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    # The step summary is appended to, as each step of the job adds its part.
    with open(path, "a" if path == os.environ.get("GITHUB_STEP_SUMMARY") else "w") as file:
        file.write(text)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Is the integration ready to go live? (docs/readiness.md)")
    parser.add_argument("--url", default=os.environ.get("ESIGN_SANDBOX_URL", "http://127.0.0.1:4010"))
    parser.add_argument("--tenant", help="only this tenant's traffic (its API key)")
    parser.add_argument("--junit", help="write the report as JUnit XML")
    parser.add_argument("--markdown", help="write the report as Markdown")
    parser.add_argument("--fail-on", choices=["error", "warning", "never"], default="error")
    args = parser.parse_args(argv)
    sandbox = Sandbox(args.url)
    try:
        report = sandbox.report(tenant=args.tenant)
        for path, fmt in ((args.junit, "junit"), (args.markdown, "markdown")):
            if path:
                write(path, sandbox.report(tenant=args.tenant, fmt=fmt))
    except (OSError, SandboxError) as error:
        print(f"readiness.py: no report from {args.url}: {error}", file=sys.stderr)
        return 2
    print(report_text(report))
    judged = {"error": ("error",), "warning": ("error", "warning"), "never": ()}[args.fail_on]
    return 1 if any(f["severity"] in judged for f in report["findings"]) else 0


if __name__ == "__main__":
    sys.exit(main())
