"""Texts of the Help menu: how to move, the keyboard scheme, the announcements."""

from __future__ import annotations

from tafl_desktop.core.marks import N_

#: Marked here, translated where shown (``_(KEYBOARD_HELP)``): a module constant is made before a
#: language is chosen.

KEYBOARD_HELP = N_("""
<h3>Playing with the mouse</h3>
<ul>
<li>Click one of your pieces: dots show where it may go. Click a dot to move there.</li>
<li>Or drag the piece and drop it on a dot.</li>
<li>Click anywhere else (or right-click, or press Esc) to put the piece back.
    If a move is not allowed, the status bar says why.</li>
<li>The last move is tinted; pieces it captured are shown faded and crossed out.</li>
</ul>
<h3>Playing with the keyboard</h3>
<p>Click the board or Tab to it, then:</p>
<table cellspacing="4">
<tr><td><b>Enter</b> or <b>Space</b></td><td>show the board cursor; then pick up the piece under it, and drop
it on a target</td></tr>
<tr><td><b>Arrow keys</b></td><td>move the board cursor (while it is shown)</td></tr>
<tr><td><b>Esc</b></td><td>put the picked piece back; press again to hide the cursor</td></tr>
</table>
<p>While the board cursor is hidden, the arrow keys step through the moves.</p>
<h3>Moves and files</h3>
<table cellspacing="4">
<tr><td><b>Left</b> / <b>Right</b></td><td>back / forward one move</td></tr>
<tr><td><b>Home</b> / <b>End</b></td><td>start position / back to the game</td></tr>
<tr><td><b>Ctrl+Z</b> / <b>Ctrl+Y</b></td><td>take back / replay a move</td></tr>
<tr><td><b>F</b></td><td>flip the board</td></tr>
<tr><td><b>Ctrl+N</b>, <b>Ctrl+O</b>, <b>Ctrl+S</b></td><td>new game, open a game, save the game</td></tr>
<tr><td><b>Ctrl+R</b></td><td>the rules in force</td></tr>
</table>
<h3>Variations, comments and set-ups</h3>
<p>Step back to an earlier position and play a different move: it starts a variation, shown indented
in the move list, and the moves played before are kept. Click any move to see its line; right-click a
move to comment on it, promote its variation or delete it.</p>
<table cellspacing="4">
<tr><td><b>Ctrl+E</b></td><td>set up a position (then play, analyse or save it)</td></tr>
<tr><td><b>Ctrl+C</b> / <b>Ctrl+Shift+C</b></td><td>copy the position / the moves as text</td></tr>
<tr><td><b>Ctrl+V</b></td><td>paste a position (opens the set-up) or a move list (a new game)</td></tr>
<tr><td><b>Ctrl+;</b></td><td>comment on the move shown</td></tr>
</table>
""")

ANNOUNCEMENTS_HELP = N_("""
<p>When announcements are on (View menu or Preferences), the panel calls out:</p>
<ul>
<li><b>Raichi</b>: the king has an open path to an escape square; the escape square is ringed.</li>
<li><b>Tuichi</b>: the king has two or more open paths, so one move cannot block them all.</li>
<li><b>Watch your king</b>: the attackers can capture the king with their next move; the king glows red.</li>
</ul>
""")

ABOUT = N_("""
<h3>Tafl Desktop</h3>
<p>Play the old Nordic board games: Hnefatafl, Tablut, Brandubh and their relatives, the Fox games and
Dablot Prejjesne.</p>
<p>Tafl players have always disagreed about the rules, so every rule is a visible toggle: choose them in
<i>File &gt; New Game</i> and read the rules in force with <i>Game &gt; Rules in Force</i>.</p>
""")
