#!/usr/bin/env python3
"""Validates JSON reports (default: the golden files) against Documentation/trace-analyze.schema.json."""
import glob
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "Documentation/trace-analyze.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
files = sys.argv[1:] or sorted(glob.glob(str(root / "Tests/TraceAnalysisTests/Golden/*.json")))
for name in files:
    jsonschema.validate(json.loads(pathlib.Path(name).read_text()), schema, cls=jsonschema.Draft202012Validator)
    print(f"valid: {name}")
