"""Words the synthetic projects are built from, and the task-like queries asked of them.

Generic game vocabulary, not taken from any real repository: the benchmark must not be tuned to a
project it will later be judged on.
"""

from __future__ import annotations

import random

MODULES = [
    "Combat", "Inventory", "Quests", "Dialogue", "Audio", "Navigation", "Crafting", "Economy", "Weather",
    "Vehicles", "Building", "Farming", "Fishing", "Stealth", "Magic", "Camera", "Input", "Network", "Save",
    "Rendering", "Animation", "Physics", "Spawning", "Loot", "Progression", "Achievements", "Tutorial",
    "Minimap", "Cinematics", "Localization", "Analytics", "Matchmaking", "Lobby", "Pets", "Mounts", "Housing",
    "Trading", "Guilds", "Weapons", "Abilities",
]  # fmt: skip
SUBS = ["AI", "Data", "UI", "Systems", "Effects", "Gameplay", "Services", "Controllers", "Views", "Utility"]
ADJECTIVES = [
    "Heavy", "Light", "Fast", "Slow", "Ranged", "Melee", "Elite", "Boss", "Hidden", "Ancient", "Frozen",
    "Burning", "Toxic", "Arcane", "Holy", "Shadow", "Iron", "Golden", "Wooden", "Crystal", "Night", "Storm",
    "Sea", "Sky", "Desert", "Forest", "Cave", "Royal", "Rogue", "Wild",
]  # fmt: skip
NOUNS = [
    "Enemy", "Player", "Weapon", "Shield", "Door", "Chest", "Trap", "Turret", "Portal", "Potion", "Spell",
    "Arrow", "Sword", "Bow", "Bomb", "Coin", "Gem", "Key", "Lever", "Bridge", "Tower", "Gate", "Torch",
    "Lantern", "Boat", "Cart", "Horse", "Dragon", "Wolf", "Spider", "Golem", "Merchant", "Guard", "Villager",
    "Quest", "Recipe", "Item", "Slot", "Buff", "Debuff", "Wave", "Checkpoint", "Pickup", "Projectile",
    "Health", "Stamina", "Mana", "Score", "Timer", "Cooldown", "Damage", "Ammo", "Reward", "Skill",
]  # fmt: skip
SUFFIXES = {
    "behaviour": ["Controller", "Spawner", "Handler", "Manager", "View", "Presenter", "Trigger", "Emitter",
                  "Tracker", "Driver", "Animator", "Interactor", "Sensor", "Follower", "Indicator"],
    "data": ["Data", "Config", "Settings", "Definition", "Profile", "Table", "Preset"],
    "service": ["Service", "System", "Calculator", "Registry", "Cache", "Builder", "Resolver", "Pool"],
    "interface": ["Source", "Receiver", "Listener", "Provider", "Owner"],
    "enum": ["Kind", "State", "Mode", "Phase", "Tier"],
    "struct": ["Info", "Snapshot", "Request", "Result", "Args"],
    "editor": ["Editor", "Inspector"],
}  # fmt: skip
FIELDS = [
    "speed", "radius", "duration", "cooldown", "maxCount", "damage", "range", "delay", "amount", "volume",
    "weight", "capacity", "interval", "chance", "multiplier", "threshold", "lifetime", "strength", "height",
    "price", "level", "armor", "health", "stamina", "spread", "accuracy", "fadeTime", "respawnTime",
]  # fmt: skip
VERBS = [
    "Activate", "Deactivate", "Spawn", "Despawn", "Refresh", "Apply", "Open", "Close", "Toggle", "Pause",
    "Resume", "Fire", "Reload", "Collect", "Equip", "Unequip", "Unlock", "Reset", "Show", "Hide", "Play",
    "Stop", "Charge", "Release", "Repair", "Upgrade", "Heal", "Interact", "Launch", "Land",
]  # fmt: skip
EVENTS = ["Activated", "Spawned", "Completed", "Failed", "Changed", "Opened", "Closed", "Depleted", "Finished"]

TEMPLATES = [
    "{verb} the {words} when the {noun} is {event}",
    "why does the {words} not {verb} after {field} changes",
    "add a {field} limit to the {words}",
    "where is the {words} {field} applied",
    "which prefabs use the {words}",
    "{words} {verb} on {event}",
    "make the {words} {verb} faster",
    "fix {words} {field} not saved",
    "the {noun} should {verb} the {words}",
    "{field} of {words} resets to zero",
]


def words_of(identifier: str) -> str:
    """`HeavyEnemySpawner` -> `heavy enemy spawner`."""
    out: list[str] = []
    cur = ""
    for ch in identifier:
        if ch.isupper() and cur:
            out.append(cur)
            cur = ""
        cur += ch
    if cur:
        out.append(cur)
    return " ".join(w.lower() for w in out if not w.isdigit())


def task_queries(type_names: list[str], count: int, seed: int) -> list[str]:
    """Natural-language tasks naming things of the project the way a person would, not its identifiers."""
    rng = random.Random(f"queries:{seed}")
    names = sorted(type_names)
    out: list[str] = []
    for i in range(count):
        name = names[rng.randrange(len(names))] if names else "Enemy"
        field = rng.choice(FIELDS)
        out.append(
            TEMPLATES[i % len(TEMPLATES)].format(
                verb=rng.choice(VERBS).lower(),
                words=words_of(name),
                noun=rng.choice(NOUNS).lower(),
                event=rng.choice(EVENTS).lower(),
                field=words_of(field[0].upper() + field[1:]),
            )
        )
    return out
