"""Rebuild (or check) the ready-to-print PDFs in ``printables/``: every preset, A4 and Letter.

    python -m tafl_desktop.printing.regenerate            # rewrite printables/
    python -m tafl_desktop.printing.regenerate --check    # exit 1 if any file is out of date

Output is deterministic (``paper.fixed_date``: ReportLab dates every file 1 January 2000 and derives
its ID from the content), so "up to date" means byte-identical; the
manifest records each file's SHA-256 and the ReportLab version that made it, because another
ReportLab version may lay out the same page with different bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import reportlab

from tafl_desktop.printing import render_set, write_atomic

PAPER_SIZES = ("a4", "letter")
MANIFEST = "manifest.json"


def printables_dir() -> Path:
    """``printables/`` beside the package in a source tree."""
    return Path(__file__).resolve().parents[2] / "printables"


def file_name(variant_id: str, paper: str) -> str:
    return f"{variant_id}-{paper}.pdf"


def build_all() -> dict[str, tuple[bytes, int]]:
    """Every printable as {file name: (PDF bytes, page count)}, in a stable order."""
    from tafl_desktop.core.variants import presets
    from tafl_desktop.printing.paper import fixed_date

    out: dict[str, tuple[bytes, int]] = {}
    with fixed_date():  # the same bytes on every run
        for vid, variant in presets().items():
            for paper in PAPER_SIZES:
                data, report = render_set(variant, paper=paper)
                out[file_name(vid, paper)] = (data, report.pages)
    return out


def manifest_for(files: dict[str, tuple[bytes, int]]) -> dict:
    return {
        "reportlab": reportlab.Version,
        "command": "python -m tafl_desktop.printing.regenerate",
        "files": {name: {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "pages": pages}
                  for name, (data, pages) in sorted(files.items())},
    }


def regenerate(folder: Path) -> list[str]:
    """Write every printable into ``folder`` (and its manifest); remove PDFs no preset makes."""
    folder.mkdir(parents=True, exist_ok=True)
    files = build_all()
    for name, (data, _pages) in files.items():
        target = folder / name
        if not target.exists() or target.read_bytes() != data:
            write_atomic(target, data)
    for stale in folder.glob("*.pdf"):
        if stale.name not in files:
            stale.unlink()
    text = json.dumps(manifest_for(files), indent=1, sort_keys=True) + "\n"
    write_atomic(folder / MANIFEST, text.encode())
    return sorted(files)


def stale_files(folder: Path) -> list[str]:
    """Names of printables that are missing, different from a fresh build, or no longer made."""
    files = build_all()
    problems = []
    for name, (data, _pages) in files.items():
        target = folder / name
        if not target.exists():
            problems.append(f"{name}: missing")
        elif target.read_bytes() != data:
            problems.append(f"{name}: out of date")
    for extra in sorted(folder.glob("*.pdf")):
        if extra.name not in files:
            problems.append(f"{extra.name}: no preset makes it any more")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tafl_desktop.printing.regenerate", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="folder to write (default: printables/ of the source tree)")
    ap.add_argument("--check", action="store_true", help="only report files that are out of date")
    args = ap.parse_args(argv)
    folder = args.out or printables_dir()
    if args.check:
        problems = stale_files(folder)
        for p in problems:
            print(p)
        if problems:
            print("run: python -m tafl_desktop.printing.regenerate", file=sys.stderr)
        return 1 if problems else 0
    names = regenerate(folder)
    print(f"wrote {len(names)} PDFs to {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
