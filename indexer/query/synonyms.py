"""Words a developer asks in and the words game code is written in, when they are not the same.

A question says "energy", the code says `Stamina`; "money" is `Gold` or `Coins`, "enemy" is
`Monster` or `Mob`. BM25 sees no shared word, so the file never becomes a candidate. Each group
below is a set of words game developers use for one thing; a word the task says (not a part
of a name it quotes: who writes `PlayerHealth` knows the code's words) in a group also
searches the group's other words, at a fraction of its weight and only through the best of them
(a disjunction-max), so a group of many words weighs like one more word, never like many.

The groups are general game and Unity vocabulary, not any project's: no group names a class,
folder or term of one game. A word that means several things ("fire": shooting or flames; "level":
a stage or a rank) is left out, since expanding it would search for the wrong thing as often as
the right one; so is a word whose stem is a common word of code ("settings" is `set`,
"protection" is `protected`, "serialize" is every `[SerializeField]`, "instantiate" every
spawn) when it would be searched as a synonym.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from indexer.identifiers import HOW_LONG, stem

SYNONYM_WEIGHT = 0.5
_GROUPS = """
health hp hitpoints vitality lives
damage hurt harm injury wound
heal healing regen regenerate regeneration restore recover recovery cure
energy stamina endurance fatigue
mana magic
money gold coin currency cash credit wallet funds
enemy monster mob foe hostile creature
ally teammate companion
die death dead
speed velocity pace
jump leap hop
crouch duck sneak
shoot shot projectile bullet missile
ammo ammunition bullets shells cartridges
weapon gun sword blade
attack strike melee assault bite
armor armour defense defence
pickup collect collectible loot grab gather
inventory backpack bag stash
score points highscore
save savegame persist persistence
options preferences config configuration
menu panel popup dialog
sound audio sfx noise
music soundtrack bgm song
camera cam viewport
shop merchant vendor shopkeeper
buy purchase
price cost
quest mission challenge
timer countdown clock
pause timescale slowmo
respawn revive resurrect checkpoint
tutorial hint tip onboarding
leaderboard scoreboard ranking
achievement trophy badge
multiplayer network networking online netcode
lobby matchmaking
dialogue conversation speech
door gate hatch
lock unlock locked
temperature heat thermal
weather rain snow storm fog cloud
pathfinding navigation navmesh route astar
boss miniboss
collision collide crash bump
obstacle hazard barrier trap
powerup buff boost bonus perk upgrade enhancement
volume loudness loud
framerate fps
controls keybinding keybind binding
cursor pointer mouse
swipe gesture
reward prize
experience xp exp
ability skill talent spell
stun stunned dizzy daze
invisible invisibility stealth cloak
drop discard throw
equip wear wield
craft crafting recipe
furnace oven smelter smelting kiln
explosion explode blast bomb detonate
hunger hungry food eat starve
thirst thirsty drink
vibration haptics rumble
ads advert advertisement
chance probability odds likelihood
background backdrop parallax scenery
shield forcefield
win victory
emote emoji reaction
colour color tint hue
rock asteroid meteor boulder
spaceship ship spacecraft
delay wait
undo rewind revert
friction grip grippy traction slippery
ice icy frost
infinite endless unlimited limitless
npc villager townsfolk
dash dodge evade evasion
crosshair reticle
minimap radar
hud overlay
cooldown recharge
reload magazine
recoil kickback
grenade throwable
punch kick attack
parry deflect riposte
crit critical
poison venom toxic
burn flame burning
teleport warp portal
chest treasure coffer
spectator spectate
cutscene cinematic cinematics
sight vision eyesight
nickname username playername
cosmetic outfit costume skin
foliage vegetation plant bush
gamepad joystick joypad
touch tap touchscreen
toggle checkbox
dropdown combobox
bounce bouncy bounciness restitution
knockback pushback
aggro threat
patrol wander roam
chase pursue pursuit
flee retreat
detect detection perceive perception
turret tower
gem jewel crystal
potion elixir flask
harvest reap
breakable destructible fracture shatter
ghost phantom spirit specter
height higher taller
zombie undead
car vehicle kart truck
boat vessel
subtitle caption captions
language localization locale
notification alert toast
brightness gamma
mute silent
login signin authentication
friend buddy
party squad
mail inbox mailbox
climb ladder
slope ramp incline
grapple grappling rope
steer steering
drift skid
nitro turbo
highlight outline
fade transition
disappear vanish hide
demolish demolition bulldoze raze remove removal
water liquid fluid
"""


# A verb's irregular forms, which the stemmer does not join as it joins "hides" and "hiding": a task
# says "the player is hidden", "seen for too long", the code `Hide`, `SeeBar`. Each form also
# searches the others, as the same word (at its own weight, the best of them: `forms`), not as a
# synonym. Not a form that is a word of its own ("left", "bound", "wound", "saw", "spoke", "felt",
# "lit", "rose"), nor a verb whose base is a word of most code ("find", "get", "make", "keep",
# "show", "build", "run", C#'s `break` and `catch`) or of most games' ("win": its screens, `OnWin`).
_FORMS = """
hide hid hidden
see seen
lose lost
throw threw thrown
fall fell fallen
fight fought
freeze froze frozen
steal stole stolen
fly flew flown
buy bought
sell sold
choose chose chosen
drive drove driven
ride rode ridden
bite bitten
shake shook shaken
grow grew grown
blow blew blown
hang hung
dig dug
spin spun
strike struck
swing swung
slide slid
flee fled
bleed bled
sleep slept
sink sank sunk
swim swam swum
wake woke woken
teach taught
bring brought
forget forgot forgotten
"""


# A task asks for more or less of something in comparatives ("jump higher", "make wires thicker",
# "enemies should be stronger"), the code names the quality as a noun (`maxJumpHeight`,
# `WireThickness`, `strength`): the stemmer keeps "-er", so each also searches the quality's
# nouns, as synonyms; a round thing's size is its radius (a splat's, a blast's, a pick-up
# range's: "make the ink splats bigger" is `maxRadius`); a tougher enemy has more health
# (`hpPercent` raised each wave). (Their adjectives, "high", "fast", "far",
# cost held-out and dev questions their other files: "zoom further out" is not about `far`.)
_COMPARATIVES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("higher", "lower", "taller"), ("height",)),
    **dict.fromkeys(("faster", "slower", "quicker"), ("speed", "duration")),
    **dict.fromkeys(("bigger", "smaller", "larger"), ("size", "scale", "radius")),
    **dict.fromkeys(("longer", "shorter"), ("length", "duration")),
    **dict.fromkeys(("stronger", "weaker"), ("strength", "power")),
    **dict.fromkeys(("tougher",), ("health", "hp", "strength")),
    **dict.fromkeys(("louder", "quieter"), ("volume",)),
    **dict.fromkeys(("brighter", "darker", "dimmer"), ("brightness", "intensity")),
    **dict.fromkeys(("thicker", "thinner"), ("thickness", "width")),
    **dict.fromkeys(("wider", "narrower"), ("width",)),
    **dict.fromkeys(("heavier",), ("weight", "mass")),
    **dict.fromkeys(("deeper", "shallower"), ("depth",)),
    **dict.fromkeys(("hotter", "colder", "warmer"), ("temperature",)),
    **dict.fromkeys(("harder", "easier"), ("difficulty",)),
    **dict.fromkeys(("cheaper", "pricier"), ("cost", "price")),
}


# The same qualities by their adjectives ("how fast does the player climb"): not searched (see
# above), but a file already in the pack shows its fields named by them (`speed = 6`). Not those
# Unity questions use in other senses: "high score", "low health", "a light", "close the menu".
_ADJECTIVES: dict[str, tuple[str, ...]] = {
    "tall": ("height",),
    **dict.fromkeys(("fast", "slow", "quick", "quickly", "slowly"), ("speed", "duration")),
    **dict.fromkeys(("big", "small", "large"), ("size", "scale")),
    "far": ("distance", "range"),
    **dict.fromkeys(("strong", "weak"), ("strength", "power")),
    **dict.fromkeys(("loud", "quiet"), ("volume",)),
    **dict.fromkeys(("bright", "dim"), ("brightness", "intensity")),
    "heavy": ("weight", "mass"),
    **dict.fromkeys(("often", "frequently"), ("rate", "interval", "delay")),
}


# "too slow", "not fast enough": the task asks for more or less of the quality as a comparative does
# ("walks too slowly" is "should walk faster"), so the adjective searches its quality's nouns too.
# Unlike the adjective alone ("how fast", "a far wall"), "too" leaves no other sense. Besides the
# adjectives above, those a comparative has ("too long" is `duration`, "too dark" `brightness`).
_EXCESS: dict[str, tuple[str, ...]] = {
    **_ADJECTIVES,
    **dict.fromkeys(("long", "short"), ("length", "duration")),
    **dict.fromkeys(("dark", "bright", "dim"), ("brightness", "intensity")),
    **dict.fromkeys(("hard", "easy", "difficult"), ("difficulty",)),
    **dict.fromkeys(("expensive", "cheap", "pricey"), ("cost", "price")),
    **dict.fromkeys(("thick", "thin"), ("thickness", "width")),
    **dict.fromkeys(("wide", "narrow"), ("width",)),
    **dict.fromkeys(("deep", "shallow"), ("depth",)),
    **dict.fromkeys(("hot", "cold", "warm"), ("temperature",)),
}
# "more often", "less often": "more" or "less" before such an adjective asks for more or less of
# its quality, as "too" does (`_EXCESS` alone: "more health" names no quality's adjective). "How
# many", anywhere in the task, asks for a count as "how long" asks for a duration ("how many notes
# of each kind get pooled": `NormalPoolCount`); "too many enemies" asks for fewer, not where a
# count is set (session 42), so only "how" makes "many" ask (`_COUNTED`).
_TOO = re.compile(
    rf"\btoo\s+(\w+)|\bnot\s+(\w+)\s+enough\b|({HOW_LONG.pattern})|\b(?:more|less)\s+(\w+)|\bhow\s+(many)\b",
    re.IGNORECASE,
)
_COUNTED: dict[str, tuple[str, ...]] = {"many": ("count",)}


def excess(text: str) -> tuple[str, ...]:
    """The adjectives the task says with "too", "not ... enough", "more" or "less" that ask for
    more or less of a quality (`_EXCESS`) and "long" in "how long" (a duration), lowercased, in
    the order said; then "many" when the task says "how many" (a count)."""
    said = (m.group(1) or m.group(2) or (m.group(3) and "long") or m.group(4) for m in _TOO.finditer(text))
    counted = ("many",) * any(m.group(5) for m in _TOO.finditer(text))
    return tuple(dict.fromkeys([*(w.lower() for w in said if w and w.lower() in _EXCESS), *counted]))


def compared(words: Iterable[str]) -> bool:
    """Whether the task says a comparative asking for more or less of a quality ("walk faster")."""
    return any(w.lower() in _COMPARATIVES for w in words)


def qualities(words: Iterable[str]) -> set[str]:
    """The nouns of the qualities the task's comparatives ask for more or less of ("make the Suv
    faster": `speed`), or its adjectives ask about ("how fast"), which a script's fields are named
    by (`topSpeed`): a pack shows them as it shows the fields the task names."""
    return {noun for w in words for noun in (*_COMPARATIVES.get(w.lower(), ()), *_ADJECTIVES.get(w.lower(), ()))}


# A noun's irregular plural, which the stemmer does not join with its singular either: a task says
# "how long do wood elves live", "the children of the panel", the code and assets `Elf_Wood`,
# `GetChild`. Searched as `_FORMS` are. Not a plural that is another word's form ("leaves" and
# "lives" are verbs as often, "axes" the plural of an axe too, "dice" and "die"), nor one whose
# singular is a word of most code ("men": `Menu`, `Element`).
_PLURALS = """
elf elves
wolf wolves
dwarf dwarves
knife knives
thief thieves
half halves
shelf shelves
hoof hooves
scarf scarves
foot feet
tooth teeth
goose geese
mouse mice
child children
index indices
vertex vertices
matrix matrices
"""

# A word and the short form code names it by: a task says "the maximum health", the code
# `maxHealth`, `AddValueMax`; "level 2", the code `EnemySpawnerLv2`, `lvlIndex` (a short form
# means what its word means, a stage or a rank alike, so "level" has them though no synonym
# group has it). Searched as `_FORMS` are, both ways.
_SHORT = """
maximum max
minimum min
language lang
level lvl lv
"""


@cache
def _forms_by_stem() -> dict[str, tuple[str, ...]]:
    """stem -> every form of its word (`_FORMS`: a verb's, `_PLURALS`: a noun's, `_SHORT`: its
    short form)."""
    lines = (_FORMS + _PLURALS + _SHORT).split("\n")
    return {stem(w): tuple(line.split()) for line in lines for w in line.split()}


# A word's British and American spellings: "the team colours", the code `Color`. A project's code
# writes one of them; the other is searched, as the same word, only in a project that never says
# the task's (`spellings`): where both are said (`ApplyColours` beside Unity's `Color` in every
# script) the task's own spelling is the project's word for it.
_SPELLINGS = """
colour color
grey gray
centre center
"""


@cache
def _spellings_by_stem() -> dict[str, tuple[str, ...]]:
    """stem -> both spellings of its word (`_SPELLINGS`)."""
    return {stem(w): tuple(line.split()) for line in _SPELLINGS.strip().split("\n") for w in line.split()}


def spellings(term: str) -> tuple[str, ...]:
    """The other spelling of the word a term is a spelling of ("colours" -> "color"), none when
    it is not one."""
    s = stem(term)
    return tuple(w for w in _spellings_by_stem().get(s, ()) if stem(w) != s)


# A compound's plural in "-men" ("spearmen", "horsemen", "gunmen"), which the stemmer keeps apart
# from its singular: the code names the one (`SpearmanMainAttack`, `_gunman.prefab`). Three letters
# at least before it, so not "men" itself nor "omen"; a word that is no such plural ("specimen",
# "abdomen") searches a form no file says, and a form no file says is not searched.
_MEN_PLURAL = re.compile(r"[a-z]{3,}men")


def forms(term: str) -> tuple[str, ...]:
    """The other forms of the verb or noun a term is a form of (`_FORMS`: "hidden" -> "hide", "hid";
    `_PLURALS`: "elves" -> "elf"; a compound's "-men": "spearmen" -> "spearman"), none when it is
    not one: the task's word, searched in any of them."""
    s = stem(term)
    listed = tuple(w for w in _forms_by_stem().get(s, ()) if stem(w) != s)
    if listed or not _MEN_PLURAL.fullmatch(term.lower()):
        return listed
    return (term.lower()[:-3] + "man",)


@cache
def _by_stem() -> dict[str, tuple[str, ...]]:
    """stem -> the words of its group (every group a word's stem is in, merged)."""
    out: dict[str, set[str]] = {}
    for line in _GROUPS.split("\n"):
        words = line.split()
        for w in words:
            out.setdefault(stem(w), set()).update(words)
    return {s: tuple(sorted(ws)) for s, ws in out.items()}


_DOUBLED = re.compile(r"[a-z]{2}([b-df-hj-km-rtv])\1$")  # a doubled consonant but l, s, z after two letters


def _group_stem(term: str, groups: dict[str, tuple[str, ...]]) -> str:
    """The term's stem, or its adjective's when it is an adverb of a group's word ("endlessly" is
    "endless", "easily" "easy"): the light stemmer keeps -ly, which only a group's word may lose;
    its verb's when the stemmer kept a doubled consonant ("tapping" is "tap", "dropped" "drop")."""
    s = stem(term)
    if s not in groups and _DOUBLED.search(s) and term.lower().endswith(("ing", "ed")):
        return s[:-1]  # `tapping`, `dropped`: the light stemmer's `tapp`, `dropp` are "tap", "drop"
    if s in groups or len(term) < 6 or not term.lower().endswith("ly"):
        return s
    base = term[:-3] + "y" if term.lower().endswith("ily") else term[:-2]
    return stem(base)


def expansions(terms: list[str], excessive: Iterable[str] = ()) -> list[tuple[str, tuple[str, ...]]]:
    """(term, the words of its group the query does not already use, by stem, and a comparative's
    quality nouns, or an adjective's said with "too", `excessive`: `excess`, and its verb's other
    forms, `forms`) for each query term in a group, a comparative or a verb's forms, in query
    order; a group two terms share is given once, with the first."""
    groups = _by_stem()
    used = {stem(t) for t in terms}
    too = frozenset(excessive)
    out: list[tuple[str, tuple[str, ...]]] = []
    for term in terms:
        grouped = groups.get(_group_stem(term, groups), ()) + _COMPARATIVES.get(term.lower(), ()) + forms(term)
        if term.lower() in too:
            grouped += {**_EXCESS, **_COUNTED}[term.lower()]
        words = tuple(w for w in dict.fromkeys(grouped) if stem(w) not in used)
        if words and all(words != seen for _, seen in out):
            out.append((term, words))
    return out


def synonym_words(terms: list[str], excessive: Iterable[str] = ()) -> tuple[str, ...]:
    """The words the query's terms were searched with besides themselves (`expansions`)."""
    return tuple(w for _, words in expansions(terms, excessive) for w in words)
