"""An EventTrigger's calls by the event each answers: its entries (`m_Delegates`) are one `callback`
each, told apart by an `eventID` above it, so a button calling `PlayOneShot` on hover and again on
select printed two identical `EventTrigger.callback(...)` lines (a trial)."""

from __future__ import annotations

import re

# UnityEngine.EventSystems.EventTriggerType, by value
EVENT_TYPES = (
    "PointerEnter", "PointerExit", "PointerDown", "PointerUp", "PointerClick", "Drag", "Drop", "Scroll",
    "UpdateSelected", "Select", "Deselect", "Move", "InitializePotentialDrag", "BeginDrag", "EndDrag", "Submit",
    "Cancel",
)  # fmt: skip
_ENTRY = re.compile(r"\s*- eventID: (\d+)\s*$")
LOOK_BACK = 8  # lines above a call its entry's `eventID` is looked for in (`callback:`, `m_PersistentCalls:` ...)


def trigger_named(lines: list[str], line: int, detail: str) -> str:
    """`detail` of a call at `line` (1-based) of a file, `EventTrigger.callback(...)` said by its
    entry's event, `EventTrigger.PointerEnter(...)`; any other as it is."""
    if "EventTrigger.callback" not in detail:
        return detail
    for i in range(min(line, len(lines)) - 1, max(line - 1 - LOOK_BACK, 0) - 1, -1):
        if (m := _ENTRY.match(lines[i])) is not None:
            number = int(m.group(1))
            name = EVENT_TYPES[number] if number < len(EVENT_TYPES) else f"event {number}"
            return detail.replace("EventTrigger.callback", f"EventTrigger.{name}", 1)
    return detail
