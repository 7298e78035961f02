"""The game's four sounds, synthesised here (no recordings, no licences): a wooden click for a
move, a heavier double knock for a capture, a two-note chime for an announcement and a rising
three-note phrase for the end of a game.

Written as small 16-bit mono WAV files (22 050 Hz) into ``resources/sounds`` by
``python -m tafl_desktop.gui.sound_synth``; deterministic, so a test checks that the files in the
tree are the ones this code makes.  Pure Python (``wave``, ``math``, a seeded ``random``).
"""

from __future__ import annotations

import io
import math
import random
import struct
import wave
from pathlib import Path

RATE = 22_050
NAMES = ("move", "capture", "announcement", "game_end")


def _tone(freq: float, seconds: float, decay: float, amp: float = 1.0) -> list[float]:
    n = int(RATE * seconds)
    return [amp * math.sin(2 * math.pi * freq * i / RATE) * math.exp(-decay * i / RATE) for i in range(n)]


def _click(seconds: float, pitch: float, seed: int, amp: float = 1.0) -> list[float]:
    """A short knock: a low tone under a burst of softened noise, both dying fast."""
    rng = random.Random(seed)
    n = int(RATE * seconds)
    out, prev = [], 0.0
    for i in range(n):
        env = math.exp(-60 * i / RATE)
        prev = 0.6 * prev + 0.4 * rng.uniform(-1, 1)  # a one-pole low-pass takes the hiss off
        out.append(amp * env * (0.55 * prev + 0.6 * math.sin(2 * math.pi * pitch * i / RATE)))
    return out


def _mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Sum signals, each starting at its offset in seconds."""
    length = max(int(RATE * at) + len(sig) for at, sig in parts)
    out = [0.0] * length
    for at, sig in parts:
        start = int(RATE * at)
        for i, v in enumerate(sig):
            out[start + i] += v
    return out


def _fade(sig: list[float], ms: float = 6.0) -> list[float]:
    """Ramp the last few milliseconds to silence, so no sound ends in a click."""
    k = min(len(sig), int(RATE * ms / 1000))
    return sig[:-k] + [v * (k - i) / k for i, v in enumerate(sig[-k:])] if k else sig


def signals() -> dict[str, list[float]]:
    """Each sound as samples in -1..1."""
    return {
        "move": _fade(_click(0.07, 310, seed=1)),
        "capture": _fade(_mix((0.0, _click(0.08, 220, seed=2)), (0.07, _click(0.1, 180, seed=3, amp=0.9)))),
        "announcement": _fade(_mix((0.0, _tone(880, 0.28, 9, 0.45)), (0.14, _tone(1318.5, 0.32, 8, 0.45)))),
        "game_end": _fade(_mix((0.0, _tone(523.25, 0.3, 6, 0.4)), (0.16, _tone(659.25, 0.3, 6, 0.4)),
                               (0.32, _tone(783.99, 0.55, 4, 0.45)))),
    }


def wav_bytes(samples: list[float], gain: float = 0.8) -> bytes:
    """16-bit mono PCM WAV of ``samples`` scaled by ``gain`` (clipped to the range)."""
    peak = max((abs(v) for v in samples), default=1.0) or 1.0
    frames = b"".join(struct.pack("<h", int(max(-1.0, min(1.0, gain * v / peak)) * 32767)) for v in samples)
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)
    return buf.getvalue()


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, sig in signals().items():
        path = folder / f"{name}.wav"
        path.write_bytes(wav_bytes(sig))
        out.append(path)
    return out


def main() -> None:
    from tafl_desktop.core.paths import resources_dir

    paths = write_all(resources_dir() / "sounds")
    print(f"wrote {len(paths)} sounds to {paths[0].parent}")


if __name__ == "__main__":
    main()
