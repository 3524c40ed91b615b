#!/usr/bin/python3
"""Validate KCIDB documents against the KCIDB I/O JSON schema, offline.

usage: kcidb-validate.py SCHEMA DOC...

Debian 12's python3-jsonschema (Draft 7) checks formats only through
optional modules Debian does not install, so the two formats the schema
uses are checked here: "date-time" (RFC 3339, with a time zone) and "uri"
(an absolute URI: a scheme and something after it).  Exit 0 when every
document is valid, 1 with one line per error otherwise.
"""
import datetime
import json
import sys
import urllib.parse

import jsonschema

checker = jsonschema.FormatChecker(formats=())


@checker.checks("date-time", raises=ValueError)
def date_time(s):
    if not isinstance(s, str):
        return True
    if "T" not in s.upper():
        raise ValueError("no 'T' between date and time")
    t = datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
    if t.tzinfo is None:
        raise ValueError("no time zone")
    return True


@checker.checks("uri", raises=ValueError)
def uri(s):
    if not isinstance(s, str):
        return True
    u = urllib.parse.urlsplit(s)
    if not u.scheme or not (u.netloc or u.path):
        raise ValueError("not an absolute URI")
    return True


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    v = cls(schema, format_checker=checker)
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        for e in sorted(v.iter_errors(doc), key=lambda e: list(e.path)):
            where = "/".join(str(p) for p in e.path) or "(top)"
            print(f"{path}: {where}: {e.message}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
