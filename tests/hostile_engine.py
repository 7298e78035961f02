"""A scripted hostile engine for the host's tests and the fuzzer: it does exactly what its script
says, whatever the OpenTafl Engine Protocol expects.

    python tests/hostile_engine.py SCRIPT.json

The script is a JSON object:

* ``"ignore_term"``: ignore SIGTERM (only SIGKILL ends it);
* ``"helpers"``: start that many helper processes that sleep ``helper_seconds`` (default 300)
  with the engine's own output inherited, as a real engine's worker pool might;
* ``"start"``: actions run at once;
* ``"read"``: false to never read stdin (after ``start`` it then sleeps for ever);
* ``"per_play"``: a list of action lists, one run for each ``play`` line (the last one repeats);
* ``"ignore_goodbye"``: stay after ``goodbye``;
* ``"log"``: a file each line received is appended to.

Actions are ``["say", text]`` (a line), ``["raw", hex]`` (bytes as they are), ``["flood", text,
n]`` (a line n times), ``["sleep", s]``, ``["exit", code]`` and ``["hang"]`` (sleep for ever).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def act(actions: list, out) -> None:
    for a in actions:
        kind = a[0]
        if kind == "say":
            out.write(a[1].encode("utf-8", "surrogatepass") + b"\n")
        elif kind == "raw":
            out.write(bytes.fromhex(a[1]))
        elif kind == "flood":
            line = a[1].encode("utf-8", "surrogatepass") + b"\n"
            for _ in range(int(a[2])):
                out.write(line)
        elif kind == "sleep":
            out.flush()
            time.sleep(float(a[1]))
        elif kind == "exit":
            out.flush()
            os._exit(int(a[1]))
        elif kind == "hang":
            out.flush()
            while True:
                time.sleep(3600)
        try:
            out.flush()
        except BrokenPipeError:
            os._exit(0)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        script = json.load(fh)
    if script.get("ignore_term"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for _ in range(int(script.get("helpers", 0))):
        subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({script.get('helper_seconds', 300)})"])
    out = sys.stdout.buffer
    act(script.get("start", []), out)
    if not script.get("read", True):
        act([["hang"]], out)
    plays = script.get("per_play", [])
    log = open(script["log"], "ab", buffering=0) if script.get("log") else None  # noqa: SIM115
    n = 0
    for raw in sys.stdin.buffer:
        if log is not None:
            log.write(raw)
        word = raw.split(b" ", 1)[0].strip()
        if word == b"play" and plays:
            act(plays[min(n, len(plays) - 1)], out)
            n += 1
        elif word == b"goodbye" and not script.get("ignore_goodbye"):
            os._exit(0)
    act(script.get("at_end", []), out)


if __name__ == "__main__":
    main()
