"""UnityEvent calls a prefab instance's overrides set: propertyPath `onClick.m_PersistentCalls.
m_Calls.Array.data[0].m_MethodName` and its siblings, grouped by the object overridden (two
components of one instance may each have their `onClick`), event and call index. An override of
`m_Calls.Array.size` ends the list: the calls past it are left in the file, and Unity drops them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from indexer.model import CALL_TARGET, Ref

from . import yaml_facts

NO_TARGET = " on None"  # a call set on no object, as the Inspector shows it: Unity calls a static method alone


class _Call(NamedTuple):
    line: int  # the file line of its first override
    values: dict[str, str]  # its keys overridden: `m_MethodName`, `m_Target` (the fileID of an object here)


class OverrideCalls:
    """One instance's calls, gathered override by override (`add`), then said as refs (`refs`)."""

    def __init__(self) -> None:
        self.calls: dict[tuple[str, str, str], _Call] = {}  # (object, event, call index) -> the call
        self.sizes: dict[tuple[str, str], int] = {}  # (object, event) -> the call count an override sets

    @staticmethod
    def wanted(prop: str, value: str) -> bool:
        """Whether an override is one of a call's, or an event's call count."""
        return yaml_facts.CALL_PATH in prop or (prop.endswith(yaml_facts.CALLS_SIZE) and value.isdecimal())

    def add(self, changed: str, prop: str, value: str, local: int, line: int, guid: str = "") -> None:
        """An override of the object `changed` (its fileID in the source prefab), at file line `line`;
        a call's object `local` of this file, or of the file `guid` (`<guid>:<fileID>`)."""
        if prop.endswith(yaml_facts.CALLS_SIZE):
            self.sizes[(changed, prop[: -len(yaml_facts.CALLS_SIZE)])] = int(value)
        elif (cm := yaml_facts.OVERRIDE_CALL.match(prop)) is not None:
            call = self.calls.setdefault((changed, cm.group(1), cm.group(2)), _Call(line, {})).values
            call[cm.group(3)] = (f"{guid}:{local}" if guid else str(local)) if cm.group(3) == "m_Target" else value

    def refs(
        self,
        path: str,
        source: str,
        call_on: Callable[[int, str], str],
        call_target: Callable[[int, str, str, str], str],
    ) -> list[Ref]:
        """A `method` ref per call naming its method, a `CALL_TARGET` one per call setting only its
        object (the source's call names the method: query/override_calls.py); `path` is the
        instance's, `source` its prefab's GUID, `call_on` and `call_target` the scanner's."""
        out = []
        for (changed, event, index), (line, call) in self.calls.items():
            if int(index) >= self.sizes.get((changed, event), int(index) + 1):  # past the count set
                continue
            # the object whose event it is, by its fileID in the source (`Menu/Left Arrow`, named by the index)
            at = f"{path}/{yaml_facts.SOURCE_OBJECT}{source}:{changed}" if source and changed else path
            method = call.get("m_MethodName", "")
            guid, _, on_id = call.get("m_Target", "0").rpartition(":")  # the object the call is set on:
            on = int(on_id or 0)  # of this file, or of the file `guid` (an event asset)
            typed = call.get("m_TargetAssemblyTypeName", "")
            if not method:
                if "m_Target" in call and source:
                    said = f"{at} > override.{event}" + (call_on(on, guid) if on else NO_TARGET)
                    # what the object set is, `script:<guid>` (`@` after the call's key): the call a
                    # pre-2020.2 prefab holds names no type, so its method's owner is this object's
                    owner = call_target(on, typed, "", guid)[:-1] if on else "?"
                    key = f"{changed}:{event}:{index}" + (f"@{owner}" if owner != "?" else "")
                    out.append(Ref(CALL_TARGET, source, line, key, said))
                continue
            target = call_target(on, typed, method, guid)
            mode = call.get("m_Mode", "")  # its argument too, `(int 1)`: the scene a button loads by index
            argument = call.get(yaml_facts.ARGUMENT_KEYS.get(mode, ""), "")
            if scene := yaml_facts.scene_argument(method, mode, argument):  # `ChangeScene("Tuesday - 1")`
                said = f"{at} > override.{event} calls {method}: {argument}"
                out.append(Ref("string", scene, line, context="field", detail=said))
            arg = yaml_facts.call_argument(mode, argument)
            detail = f"{at} > override.{event}({arg})" + (call_on(on, guid) if on else "")
            out.append(Ref("method", target, line, context=event, detail=detail))
        return out
