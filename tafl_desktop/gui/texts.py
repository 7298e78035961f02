"""Texts on widgets that follow a language switch: each remembers its English source.

A static text is set with :func:`tr` (``tr(button, "setText", "Save")``) instead of
``button.setText(_("Save"))``: the widget gets the translation now, and keeps the source text and
its fields in a dynamic property, so that :func:`retranslate_all` can rebuild it from the source
after the player picks another language.  Nothing is ever looked up from the text on screen
(two English texts may share one translation, "Back" and "Previous" are both "Zurück").

A field may be a callable, called each time the text is built (a variant's title, itself
translated).  Combo box items use :func:`add_item`; texts rebuilt by a widget's own refresh
(the status line, the move list) need none of this.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tafl_desktop.i18n import _, ngettext

#: Dynamic property of an object: "tr:" + setter name -> JSON [source, fields].
PREFIX = "tr:"
#: The text last set through :func:`tr`, per setter: a widget whose text was set otherwise since
#: (a status label that :func:`tr` once filled and its owner now writes itself) is left to its
#: owner's refresh.
SHOWN = "tr-shown:"
#: The getter of each setter, to see whether the text is still the one set here.
GETTERS = {"setText": "text", "setToolTip": "toolTip", "setStatusTip": "statusTip", "setWindowTitle": "windowTitle",
           "setTitle": "title", "setAccessibleName": "accessibleName", "setSuffix": "suffix",
           "setPlaceholderText": "placeholderText", "setAccessibleDescription": "accessibleDescription",
           "setWhatsThis": "whatsThis", "setIconText": "iconText", "setFormat": "format"}
#: Combo box items: JSON {index: [source, fields]}.
ITEMS = "tr-items"
#: Fields that are callables, kept per object (JSON cannot hold them): the object's "tr-lazy"
#: property (a number given once) -> setter -> fields.  Keyed by a property, not by id(): PySide
#: may hand out a new wrapper for the same widget.
LAZY_KEY = "tr-lazy"
_LAZY: dict[int, dict[str, dict[str, Callable[[], Any]]]] = {}
_next_lazy = [0]


def render(source: str | list[str], fields: dict[str, Any] | None = None) -> str:
    """``source`` in the language in use, its fields filled (callables called); a source
    ``[singular, plural, field]`` (:func:`trn`) takes the form the number in ``field`` needs."""
    values = {k: (v() if callable(v) else v) for k, v in (fields or {}).items()}
    if isinstance(source, str):
        text = _(source)
    else:
        singular, plural, count = source
        text = ngettext(singular, plural, int(values[count]))
    return text.format(**values) if values else text


def _split(obj: Any, key: str, fields: dict[str, Any]) -> dict[str, Any]:
    lazy = {k: v for k, v in fields.items() if callable(v)}
    if lazy:
        number = obj.property(LAZY_KEY)
        if number is None:
            _next_lazy[0] += 1
            number = _next_lazy[0]
            obj.setProperty(LAZY_KEY, number)
            obj.destroyed.connect(lambda *_a, i=number: _LAZY.pop(i, None))
        _LAZY.setdefault(int(number), {})[key] = lazy
    return {k: (v if isinstance(v, (int, float)) else str(v)) for k, v in fields.items() if not callable(v)}


def tr(obj: Any, setter: str, source: str, **fields: Any) -> Any:
    """``obj.setter(_(source).format(**fields))`` now and after every language switch; returns
    ``obj`` (so ``tr(QLabel(), "setText", "Name:")`` can stand where the label is made)."""
    text = render(source, fields)
    if not hasattr(obj, "setProperty"):  # a model item (QStandardItem), rebuilt with its view's dialog
        getattr(obj, setter)(text)
        return obj
    obj.setProperty(PREFIX + setter, json.dumps([source, _split(obj, setter, fields)]))
    getattr(obj, setter)(text)
    _remember(obj, setter)
    return obj


def trn(obj: Any, setter: str, singular: str, plural: str, count: str, **fields: Any) -> Any:
    """:func:`tr` for a text that counts something: the field named ``count`` chooses the
    singular or plural form (Russian has three) now and after every language switch."""
    text = render([singular, plural, count], fields)
    if not hasattr(obj, "setProperty"):
        getattr(obj, setter)(text)
        return obj
    obj.setProperty(PREFIX + setter, json.dumps([[singular, plural, count], _split(obj, setter, fields)]))
    getattr(obj, setter)(text)
    _remember(obj, setter)
    return obj


def _remember(obj: Any, setter: str) -> None:
    getter = GETTERS.get(setter)
    if getter is not None:
        obj.setProperty(SHOWN + setter, getattr(obj, getter)())


def _still_ours(obj: Any, setter: str) -> bool:
    getter = GETTERS.get(setter)
    return getter is None or getattr(obj, getter)() == obj.property(SHOWN + setter)


def add_item(combo: Any, source: str, data: Any = None, **fields: Any) -> int:
    """Add an item to ``combo`` whose text follows the language; returns its index."""
    index = combo.count()
    combo.addItem(render(source, fields), data)
    items = json.loads(combo.property(ITEMS) or "{}")
    items[str(index)] = [source, _split(combo, f"item{index}", fields)]
    combo.setProperty(ITEMS, json.dumps(items))
    return index


def set_item(combo: Any, index: int, source: str, **fields: Any) -> None:
    """Give item ``index`` of ``combo`` a text that follows the language."""
    combo.setItemText(index, render(source, fields))
    items = json.loads(combo.property(ITEMS) or "{}")
    items[str(index)] = [source, _split(combo, f"item{index}", fields)]
    combo.setProperty(ITEMS, json.dumps(items))


def _fields(obj: Any, key: str, stored: dict[str, Any]) -> dict[str, Any]:
    number = obj.property(LAZY_KEY)
    return {**stored, **(_LAZY.get(int(number), {}).get(key, {}) if number is not None else {})}


def retranslate_object(obj: Any) -> int:
    """Rebuild every remembered text of ``obj`` in the language now in use."""
    changed = 0
    for name in obj.dynamicPropertyNames():
        key = bytes(name).decode()
        if key.startswith(PREFIX):
            setter = key[len(PREFIX):]
            if not _still_ours(obj, setter):
                continue
            source, stored = json.loads(obj.property(key))
            getattr(obj, setter)(render(source, _fields(obj, setter, stored)))
            _remember(obj, setter)
            changed += 1
        elif key == ITEMS:
            for index, (source, stored) in json.loads(obj.property(key)).items():
                if int(index) < obj.count():
                    obj.setItemText(int(index), render(source, _fields(obj, f"item{index}", stored)))
                    changed += 1
    return changed


def retranslate_all(roots: list[Any]) -> int:
    """Rebuild the remembered texts of ``roots`` and of every object below them."""
    from PySide6.QtCore import QObject

    seen: set[int] = set()
    changed = 0
    for root in roots:
        for obj in (root, *root.findChildren(QObject)):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            changed += retranslate_object(obj)
    return changed
