"""The digest of a failed `swift test` log (Swift Testing's output): failed tests with their first issue, the
tests still running when the process died (a crash names no test), and the crash report's first lines."""

import re
import sys

STARTED = re.compile(r"^◇ Test (\S+?)\(.*\) started\.")
ENDED = re.compile(r"^[✔✘↳] Test (\S+?)\(.*\) (passed|failed|skipped)")
ISSUE = re.compile(r"^✘ Test (\S+?)\(.*\) recorded an issue at (.*)")


def main(path: str) -> None:
    running: dict[str, None] = {}
    issues: list[str] = []
    crash: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.rstrip("\n")
            if crash:
                crash.append(line)
                continue
            if "Program crashed" in line or line.startswith("💣"):
                crash.append(line)
            elif match := STARTED.match(line):
                running[match.group(1)] = None
            elif match := ENDED.match(line):
                running.pop(match.group(1), None)
            elif match := ISSUE.match(line):
                issues.append(f"{match.group(1)}: {match.group(2)[:300]}")
            elif line.startswith("↳ ") and issues and "\n" not in issues[-1]:
                # The issue's comment (what an expectation or `Issue.record` said).
                issues[-1] += f"\n    {line[2:300]}"
    print("== Digest of the failed run")
    for issue in issues[:20]:
        print(f"failed: {issue}")
    if len(issues) > 20:
        print(f"… and {len(issues) - 20} more issues")
    if crash:
        print(f"crashed while running {len(running)} tests: {', '.join(list(running)[:25])}")
        frames = [line for line in crash if line.strip()][:32]
        print("\n".join(frames))


if __name__ == "__main__":
    main(sys.argv[1])
