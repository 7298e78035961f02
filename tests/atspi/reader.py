"""A screen reader's view of Tafl Desktop through AT-SPI, printed as JSON (for
``test_atspi_board.py``).  Runs under Debian's /usr/bin/python3 (pyatspi is a system package),
inside ``dbus-run-session``: starts the accessibility bus, Xvfb and the app (``--app`` command),
finds the app's table ("Board as a table" in any language: the first table), and prints its size,
every cell's name, the headers, the focused cell, and every ``object:announcement`` the app sends
after it is told to type its moves."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402


def start_display() -> tuple[subprocess.Popen, str]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            break
        number += chunk
    os.close(read)
    return xvfb, ":" + number.decode().strip()


def find_app(name: str, deadline: float, proc: subprocess.Popen):
    while time.monotonic() < deadline and proc.poll() is None:
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and app.get_name() == name:
                return app
        time.sleep(0.2)
    return None


def find_role(node, role, name, depth=0):
    if node is None or depth > 40:
        return None
    try:
        if node.get_role() == role and node.get_name() == name:
            return node
        if node.get_role() == role:
            return None  # another table (the move list): its cells are not walked
        for i in range(node.get_child_count()):
            hit = find_role(node.get_child_at_index(i), role, name, depth + 1)
            if hit is not None:
                return hit
    except GLib.Error:
        return None
    return None


def descriptions(node, depth=0, out=None) -> list:
    """[role, name, description] of every object under ``node`` that has a description (what a
    screen reader says after the name); a table's cells are not walked."""
    out = [] if out is None else out
    if node is None or depth > 40:
        return out
    try:
        text = node.get_description()
        if text:
            out.append([node.get_role_name(), node.get_name(), text])
        if node.get_role() != Atspi.Role.TABLE:
            for i in range(node.get_child_count()):
                descriptions(node.get_child_at_index(i), depth + 1, out)
    except GLib.Error:
        pass
    return out


def read_table(table) -> dict:
    t = table
    rows, cols = Atspi.Table.get_n_rows(t), Atspi.Table.get_n_columns(t)
    cells = [[Atspi.Table.get_accessible_at(t, r, c).get_name() for c in range(cols)] for r in range(rows)]
    row_headers, col_headers = [], []
    for r in range(rows):
        h = Atspi.Table.get_row_header(t, r)
        row_headers.append(h.get_name() if h is not None else Atspi.Table.get_row_description(t, r))
    for c in range(cols):
        h = Atspi.Table.get_column_header(t, c)
        col_headers.append(h.get_name() if h is not None else Atspi.Table.get_column_description(t, c))
    focused = None
    for r in range(rows):
        for c in range(cols):
            cell = Atspi.Table.get_accessible_at(t, r, c)
            if cell.get_state_set().contains(Atspi.StateType.FOCUSED):
                focused = [r, c, cell.get_name()]
    return {"name": table.get_name(), "rows": rows, "columns": cols, "cells": cells,
            "row_headers": row_headers, "column_headers": col_headers, "focused": focused}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True, help="the command that starts the app (its go file is {go})")
    parser.add_argument("--name", default="tafl-atspi-probe")
    parser.add_argument("--table", required=True, help="the accessible name of the table to read")
    parser.add_argument("--listen", type=float, default=2.0)
    args = parser.parse_args()
    bus = subprocess.Popen(["/usr/libexec/at-spi-bus-launcher", "--launch-immediately"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    xvfb, display = start_display()
    go = os.path.join(tempfile.mkdtemp(), "go")
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1")
    app_proc = subprocess.Popen(shlex.split(args.app.replace("{go}", go)), env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    out: dict = {"display": display}
    try:
        time.sleep(0.5)
        app = find_app(args.name, time.monotonic() + 30, app_proc)
        if app is None:
            out["error"] = "the app did not appear on the accessibility bus"
            return 0
        deadline = time.monotonic() + 15
        table = None
        while table is None and time.monotonic() < deadline:
            table = find_role(app, Atspi.Role.TABLE, args.table)
            if table is None:
                time.sleep(0.3)
        if table is None:
            out["error"] = f"no table named {args.table!r} in the app"
            return 0
        out["table"] = read_table(table)
        out["descriptions"] = descriptions(app)
        heard: list[dict] = []

        def on_event(event) -> None:
            if event.type.startswith("object:announcement"):
                heard.append({"text": str(event.any_data), "politeness": event.detail1, "at": time.monotonic()})

        listener = Atspi.EventListener.new(on_event)
        listener.register("object:announcement")
        open(go, "w").close()
        told = time.monotonic()
        loop = GLib.MainLoop()
        GLib.timeout_add(int(args.listen * 1000), loop.quit)
        loop.run()
        out["announcements"] = [dict(h, at=round(h["at"] - told, 3)) for h in heard]
        out["table_after"] = read_table(table)
    finally:
        app_proc.terminate()
        try:
            stdout, stderr = app_proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            app_proc.kill()
            stdout, stderr = app_proc.communicate()
        out["app_stdout"] = stdout[-2000:]
        out["app_stderr"] = stderr[-2000:]
        xvfb.terminate()
        bus.terminate()
        xvfb.wait(10)
        bus.wait(10)
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
