#!/usr/bin/env python3
"""Validates JSON reports (default: the golden files) against Documentation/trace-analyze.schema.json; each line of a
.jsonl file (--format jsonl, live mode) against its $defs/liveLine."""
import glob
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(__file__).resolve().parent.parent
schema = json.loads((root / "Documentation/trace-analyze.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
live_line = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/liveLine"}
golden = root / "Tests/TraceAnalysisTests/Golden"
files = sys.argv[1:] or sorted(glob.glob(str(golden / "*.json")) + glob.glob(str(golden / "*.jsonl")))
for name in files:
    text = pathlib.Path(name).read_text()
    if name.endswith(".jsonl"):
        lines = text.splitlines()
        for line in lines:
            jsonschema.validate(json.loads(line), live_line, cls=jsonschema.Draft202012Validator)
        print(f"valid: {name} ({len(lines)} lines)")
    else:
        jsonschema.validate(json.loads(text), schema, cls=jsonschema.Draft202012Validator)
        print(f"valid: {name}")
