"""Sounds for moves, captures, announcements and the end of a game, without QtMultimedia.

QtMultimedia lives in PySide6-Addons, a second wheel several times the size of everything else
the app installs; four short WAV files do not need it.  The sounds (``resources/sounds``, made by
``gui.sound_synth``) are played by what every desktop already has: ``winsound`` (standard library)
on Windows, ``afplay`` on macOS, and ``pw-play``, ``paplay`` or ``aplay`` on Linux, started as a
separate process so the window never waits.  The volume is applied by writing a scaled copy of
each file once per volume (a few kilobytes in the temporary folder).  With no player or no audio
device the game is simply silent: a failed sound is never an error.
"""

from __future__ import annotations

import array
import os
import shutil
import subprocess
import sys
import tempfile
import wave
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tafl_desktop.core.paths import resources_dir
from tafl_desktop.session.readout import announcements

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

#: Linux players, first found wins (PipeWire, PulseAudio, ALSA).
LINUX_PLAYERS = (("pw-play",), ("paplay",), ("aplay", "-q"))


def _spawn(cmd: list[str]) -> subprocess.Popen | None:
    try:
        return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        return None


def detect_backend() -> Callable[[Path], None] | None:
    """A function that starts playing a WAV file and returns at once; None when none exists."""
    if sys.platform == "win32":
        try:
            import winsound
        except ImportError:
            return None
        flags = winsound.SND_FILENAME | winsound.SND_ASYNC | winsound.SND_NODEFAULT
        return lambda path: winsound.PlaySound(str(path), flags)
    if sys.platform == "darwin":
        cmd: tuple[str, ...] | None = ("afplay",) if shutil.which("afplay") else None
    else:
        cmd = next((c for c in LINUX_PLAYERS if shutil.which(c[0])), None)
    if cmd is None:
        return None
    running: list[subprocess.Popen] = []

    def play(path: Path) -> None:
        running[:] = [p for p in running if p.poll() is None]  # reap the finished ones
        proc = _spawn([*cmd, str(path)])
        if proc is not None:
            running.append(proc)

    return play


def scaled_wav(source: Path, volume: int, folder: Path) -> Path:
    """``source`` at ``volume`` percent (16-bit PCM), written once into ``folder``."""
    target = folder / f"{source.stem}-{volume}.wav"
    if target.exists():
        return target
    with wave.open(str(source), "rb") as r:
        params = r.getparams()
        samples = array.array("h", r.readframes(r.getnframes()))
    if sys.byteorder == "big":
        samples.byteswap()
    k = volume / 100
    scaled = array.array("h", (int(v * k) for v in samples))
    if sys.byteorder == "big":
        scaled.byteswap()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.part")
    with wave.open(str(tmp), "wb") as w:
        w.setparams(params)
        w.writeframes(scaled.tobytes())
    os.replace(tmp, target)
    return target


class SoundPlayer:
    """Plays the named sounds at the chosen volume; silent when off, at 0, or without a player."""

    def __init__(self, backend: Callable[[Path], None] | None | str = "detect",
                 folder: Path | None = None) -> None:
        self.backend: Callable[[Path], None] | None = (
            detect_backend() if backend == "detect" else None if isinstance(backend, str) else backend)
        self.enabled = True
        self.volume = 70
        user = os.getuid() if hasattr(os, "getuid") else 0
        self.folder = folder or Path(tempfile.gettempdir()) / f"tafl-desktop-sounds-{user}"
        self.played: list[str] = []  # names played, newest last (what a test or a log can read)

    def play(self, name: str) -> bool:
        """Start sound ``name`` (``move``, ``capture``, ``announcement``, ``game_end``); True if started."""
        if not self.enabled or self.volume <= 0 or self.backend is None:
            return False
        try:
            source = resources_dir() / "sounds" / f"{name}.wav"
            path = source if self.volume >= 100 else scaled_wav(source, self.volume, self.folder)
            self.backend(path)
        except (OSError, EOFError, wave.Error, RuntimeError):
            return False  # a missing file or a busy device: the game goes on silently
        self.played.append(name)
        return True


class GameSounds:
    """Connects the window's game to the player: a move or a capture after each new move, a chime
    when an announcement appears, a phrase when the game ends."""

    def __init__(self, window: MainWindow, player: SoundPlayer | None = None) -> None:
        self.window = window
        self.player = player or SoundPlayer()
        self._calls: tuple[str, ...] = ()
        events = window.events
        events.played.connect(self._played)
        events.finished.connect(lambda _outcome: self.player.play("game_end"))
        events.changed.connect(self._changed)
        window.preferences_changed.connect(self.follow)
        self.follow(window.prefs)

    def follow(self, prefs) -> None:
        self.player.enabled = bool(prefs.sound)
        self.player.volume = int(prefs.volume)

    def _played(self, ply) -> None:
        """A new move (not undo, redo or a step through the moves): its sound, unless it ended the
        game (the end has its own)."""
        if self.window.session.game.outcome is None:
            self.player.play("capture" if ply.captures else "move")

    def _changed(self) -> None:
        c = self.window.session
        calls = tuple(a.title for a in announcements(c, self.window.controller.announce)) if c.is_live else ()
        if calls and calls != self._calls:
            self.player.play("announcement")
        self._calls = calls


def install(window: MainWindow) -> None:
    """Sounds follow Preferences > Play sounds and Volume."""
    window.sounds = GameSounds(window)
