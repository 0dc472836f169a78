#!/usr/bin/env python3
# Writes `log show --style ndjson` lines for the records of a `generate-capture --style log-default` capture read
# from standard input: one JSON object a record, with the keys `log` writes, in its order, and the continuation lines
# of a record joined into its message. The performance notes time `log-ndjson` on its output
# (Documentation/Performance.md, twentieth session):
#
#   head -c 30000000 bench-data/capture-100MB-log-default.log | Scripts/ndjson-capture.py > bench-data/capture-ndjson.log
import json
import re
import sys

pat = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d{4}) +(0x[0-9a-f]+) +([A-Z][a-z]+) +0x[0-9a-f]+ +(\d+) +(?:\d+ +)?([^:]+?): (?:\[([^:\]\s]+):([^\]]*)\] )?(.*)$')
out = sys.stdout
rec = None
mach = 20147685217463
def flush():
    if rec is None: return
    ts, thread, level, pid, name, sub, cat, msg = rec
    o = {"timezoneName": "", "messageType": level, "eventType": "logEvent", "source": None,
         "formatString": "%{public}@", "userID": 501, "activityIdentifier": 0,
         "subsystem": sub or "", "category": cat or "", "threadID": int(thread, 16),
         "senderImageUUID": "0F483193-D206-362B-9874-0100BCCB9CBD",
         "backtrace": {"frames": [{"imageOffset": 103060, "imageUUID": "0F483193-D206-362B-9874-0100BCCB9CBD"}]},
         "bootUUID": "3590A0B1-4C7D-4C4A-9F0B-69FAC3D0BD58",
         "processImagePath": "/Applications/%s.app/%s" % (name, name),
         "senderImagePath": "/System/Library/Frameworks/Foundation.framework/Versions/C/Foundation",
         "timestamp": ts, "machTimestamp": mach, "eventMessage": msg,
         "processImageUUID": "4044151C-2EEE-3A42-9F88-BDEE75975064", "traceID": 41979461356879876,
         "processID": int(pid), "senderProgramCounter": 103060, "parentActivityIdentifier": 0}
    out.write(json.dumps(o, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/") + "\n")
for line in sys.stdin.buffer:
    text = line.decode("utf-8", "replace").rstrip("\n")
    m = pat.match(text)
    if m:
        flush(); mach += 1000
        rec = list(m.groups())
    elif rec is not None:
        rec[7] += "\n" + text
flush()
